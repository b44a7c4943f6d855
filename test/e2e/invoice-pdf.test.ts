import { PNG } from 'pngjs';
import { pdfText } from '../../shared/domain/receipts/pdf-text';
import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

// The PDF is read back with pdf.js, as a person's viewer would read it: every figure on it must be there.
const { ctx, send } = withTwoTeams();

const pdfOf = async (id: string, token = ctx.acme.sessionToken) => {
  const res = await ctx.api.fetch(`/invoices/${id}/pdf`, { token });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('GET /invoices/:id/pdf', () => {
  it('renders the invoice with its customer, every line, VAT per rate and the total, formatted for the team', async () => {
    await ctx.tdb.db('teams').where({ id: ctx.acme.team.id }).update({ countryCode: 'DE', email: 'billing@acme.example' });
    const details = await send('PATCH', '/teams/current', ctx.acme.sessionToken, {
      invoicePaymentDetails: 'Commerzbank Berlin\nIBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
    });
    expect((await details.json()).data.invoicePaymentDetails).toContain('IBAN DE89');
    const customer = (
      await (
        await send('POST', '/customers', ctx.acme.sessionToken, {
          name: 'Nordwind Müller GmbH',
          addressLine1: 'Hauptstraße 5',
          city: 'Berlin',
          zip: '10115',
          countryCode: 'DE',
          vatNumber: 'DE123456789',
        })
      ).json()
    ).data;
    const invoice = (
      await (
        await send('POST', '/invoices', ctx.acme.sessionToken, {
          customerId: customer.id,
          currency: 'EUR',
          issueDate: '2026-11-02',
          dueDate: '2026-11-16',
          note: 'Thank you for your business.',
          lineItems: [
            { name: 'Consulting', quantity: 10, unit: 'hours', price: 150, vatRate: 19 },
            { name: 'Handbook', quantity: 2, price: 24.5, vatRate: 7 },
          ],
        })
      ).json()
    ).data;
    // Issued, so it carries its number (a draft's PDF shows `Draft`).
    invoice.invoiceNumber = (
      await (await send('POST', `/invoices/${invoice.id}/finalize`, ctx.acme.sessionToken, {})).json()
    ).data.invoiceNumber;
    expect(invoice.invoiceNumber).toMatch(/^INV-\d{4}$/);
    const { res, bytes } = await pdfOf(invoice.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${invoice.invoiceNumber}.pdf`);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);

    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const expected of [
      invoice.invoiceNumber,
      'Acme',
      'billing@acme.example',
      'Nordwind Müller GmbH',
      'Hauptstraße 5',
      '10115 Berlin',
      'VAT DE123456789',
      'Consulting (hours)',
      'Handbook',
      '1.500,00 €', // 10 × 150, German format
      '49,00 €',
      'VAT 19 % of 1.500,00 €',
      '285,00 €',
      'VAT 7 % of 49,00 €',
      '3,43 €',
      '1.837,43 €', // the total due
      '02.11.2026',
      'Thank you for your business.',
      'Commerzbank Berlin',
      'IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
      `Please quote ${invoice.invoiceNumber} as the payment reference.`,
    ]) {
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });
    }
    expect(invoice.amount).toBe(1837.43);
  });

  it("prints the team's uploaded logo, and takes only a PNG or JPEG document of the team as the logo", async () => {
    const png = new PNG({ width: 120, height: 40 });
    png.data.fill(0x3a);
    const upload = async (name: string, bytes: Buffer, token = ctx.acme.sessionToken) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      const res = await ctx.api.fetch('/documents', { method: 'POST', token, body: form });
      return ((await res.json()) as { data: { id: string }[] }).data[0].id;
    };
    const logo = await upload('logo.png', PNG.sync.write(png));
    const text = await upload('notes.txt', Buffer.from('not an image\n'));
    const theirs = await upload('their-logo.png', PNG.sync.write(png), ctx.other.sessionToken);
    for (const wrong of [text, theirs]) {
      const res = await send('PATCH', '/teams/current', ctx.acme.sessionToken, { logoDocumentId: wrong });
      expect(res.status).toBe(400);
    }
    const set = await send('PATCH', '/teams/current', ctx.acme.sessionToken, { logoDocumentId: logo });
    expect((await set.json()).data.logoDocumentId).toBe(logo);

    const invoice = (
      await (
        await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'EUR', lineItems: [{ name: 'Logo work', price: 10 }] })
      ).json()
    ).data;
    const { bytes } = await pdfOf(invoice.id);
    // The logo is embedded as an image (with its alpha channel as a second, mask image).
    expect(bytes.toString('latin1')).toContain('/Subtype /Image');
    expect((await pdfText(bytes)).replace(/\s+/g, ' ')).toContain('Logo work');
    await send('PATCH', '/teams/current', ctx.acme.sessionToken, { logoDocumentId: null });
    expect((await pdfOf(invoice.id)).bytes.toString('latin1')).not.toContain('/Subtype /Image');
  });

  it('is another team’s 404 and needs invoices.read', async () => {
    const invoice = (
      await (await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'USD', lineItems: [{ name: 'Audit', price: 900 }] })).json()
    ).data;
    expect((await pdfOf(invoice.id, ctx.other.sessionToken)).res.status).toBe(404);
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['customers.read']);
    expect((await pdfOf(invoice.id, key)).res.status).toBe(403);
    const readKey = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['invoices.read']);
    const { res, bytes } = await pdfOf(invoice.id, readKey);
    expect(res.status).toBe(200);
    expect((await pdfText(bytes)).replace(/\s+/g, ' ')).toContain('900,00 $');
  });
});

describe('the public link (/i/:token)', () => {
  const finalized = async (token = ctx.acme.sessionToken) => {
    const customer = (await (await send('POST', '/customers', token, { name: 'Initech <b>Ltd</b>' })).json()).data;
    const invoice = (
      await (
        await send('POST', '/invoices', token, {
          customerId: customer.id,
          currency: 'EUR',
          lineItems: [{ name: 'Support plan', price: 240 }],
        })
      ).json()
    ).data;
    const issued = await send('POST', `/invoices/${invoice.id}/finalize`, token, {});
    expect(issued.status).toBe(200);
    return (await issued.json()).data as { id: string; invoiceNumber: string };
  };
  const visit = (path: string) => fetch(`${ctx.api.url}${path}`);

  it('shows the invoice and its PDF without a login, records one view a day, and 404s once revoked', async () => {
    await ctx.tdb.db('teams').where({ id: ctx.acme.team.id }).update({ countryCode: 'DE' });
    const invoice = await finalized();
    const made = await send('POST', `/invoices/${invoice.id}/public-link`, ctx.acme.sessionToken, {});
    expect(made.status).toBe(201);
    const { url } = (await made.json()).data as { url: string };
    const path = new URL(url, ctx.api.url).pathname;
    expect(path).toMatch(/^\/i\/inv_[\w-]{43}$/);
    // Only the hash is kept.
    expect(JSON.stringify(await ctx.tdb.db('invoice_links').where({ invoiceId: invoice.id }))).not.toContain(path.slice(3));

    const page = await visit(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain(invoice.invoiceNumber);
    expect(html).toContain('Initech &#60;b&#62;Ltd&#60;/b&#62;'); // escaped, never markup
    expect(html).toContain('240,00\u00a0€'); // the team is in Germany: as on the PDF
    const pdf = await visit(`${path}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(invoice.invoiceNumber);

    const views = await ctx.tdb.db('invoice_views').where({ invoiceId: invoice.id });
    expect(views).toHaveLength(1); // two visits today, one recorded view
    const seen = (await (await send('GET', `/invoices/${invoice.id}`, ctx.acme.sessionToken)).json()).data;
    expect(seen.viewedAt).not.toBeNull();

    expect((await send('DELETE', `/invoices/${invoice.id}/public-link`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await visit(path)).status).toBe(404);
    expect((await visit(`${path}/pdf`)).status).toBe(404);
    expect((await send('DELETE', `/invoices/${invoice.id}/public-link`, ctx.acme.sessionToken)).status).toBe(404);
  });

  it('names the PDF in ASCII for every client and in UTF-8 for those that read it, through the API and the link alike', async () => {
    const number = 'Rechnung Ω 王 "7"; 1%';
    const invoice = (
      await (
        await send('POST', '/invoices', ctx.acme.sessionToken, {
          invoiceNumber: number,
          currency: 'EUR',
          lineItems: [{ name: 'Support plan', price: 240 }],
        })
      ).json()
    ).data;
    expect((await send('POST', `/invoices/${invoice.id}/finalize`, ctx.acme.sessionToken, {})).status).toBe(200);
    const { url } = (await (await send('POST', `/invoices/${invoice.id}/public-link`, ctx.acme.sessionToken, {})).json()).data;
    // RFC 6266: the fallback has no quote, backslash, semicolon or percent sign to be read differently;
    // the name itself is in `filename*`, percent-encoded UTF-8.
    const expected = `attachment; filename="Rechnung _ _ _7__ 1_.pdf"; filename*=UTF-8''Rechnung%20%CE%A9%20%E7%8E%8B%20%227%22%3B%201%25.pdf`;
    for (const res of [(await pdfOf(invoice.id)).res, await visit(`${new URL(url, ctx.api.url).pathname}/pdf`)]) {
      expect(res.status).toBe(200);
      const header = res.headers.get('content-disposition') ?? '';
      expect(header).toBe(expected);
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      expect(decodeURIComponent(header.split("UTF-8''")[1])).toBe(`${number}.pdf`);
    }
    // A name in Latin-1 alone was sent raw, and clients guess its charset: it too gets both forms.
    const latin = (
      await (
        await send('POST', '/invoices', ctx.acme.sessionToken, {
          invoiceNumber: 'Müller-1',
          currency: 'EUR',
          lineItems: [{ name: 'Support plan', price: 240 }],
        })
      ).json()
    ).data;
    expect((await pdfOf(latin.id)).res.headers.get('content-disposition')).toBe(
      `attachment; filename="Muller-1.pdf"; filename*=UTF-8''M%C3%BCller-1.pdf`,
    );
  });

  it('a new link replaces the old; drafts, other teams and unknown tokens show nothing', async () => {
    const invoice = await finalized();
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const first = new URL((await trpc.invoices.createPublicLink.mutate({ id: invoice.id })).url, ctx.api.url).pathname;
    const second = new URL((await trpc.invoices.createPublicLink.mutate({ id: invoice.id })).url, ctx.api.url).pathname;
    expect((await visit(first)).status).toBe(404);
    expect((await visit(second)).status).toBe(200);
    await trpc.invoices.revokePublicLink.mutate({ id: invoice.id });
    expect((await visit(second)).status).toBe(404);

    const draft = (
      await (await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'EUR', lineItems: [{ name: 'x', price: 1 }] })).json()
    ).data;
    expect((await send('POST', `/invoices/${draft.id}/public-link`, ctx.acme.sessionToken, {})).status).toBe(409);
    expect(await trpcError(trpcAs(ctx.api, ctx.other.sessionToken).invoices.createPublicLink.mutate({ id: invoice.id }))).toMatchObject({
      httpStatus: 404,
    });
    expect((await visit('/i/inv_not-a-real-token')).status).toBe(404);
  });
});
