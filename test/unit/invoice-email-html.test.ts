import { invoiceEmailHtml } from '../../shared/domain/invoices/email-html';

const content = {
  teamName: 'Acme <Tools> & "Sons"',
  invoiceNumber: 'INV-0042',
  lead: 'Acme <Tools> & "Sons" has sent you invoice INV-0042 for €119.00, due on 12 December 2026.',
  amountDue: '€119.00',
  due: '12 December 2026',
  payment: ['IBAN DE02 1203 0000 0000 2020 51', 'Please quote INV-0042 as the payment reference.'],
  link: 'https://finops.example/i/inv_abc"><script>x</script>',
  reminder: false,
};

describe('the HTML part of an invoice email', () => {
  it('shows the figures, how to pay and the link, and escapes every value', () => {
    const html = invoiceEmailHtml(content);
    expect(html).toContain('€119.00');
    expect(html).toContain('12 December 2026');
    expect(html).toContain('IBAN DE02 1203 0000 0000 2020 51<br>Please quote INV-0042 as the payment reference.');
    expect(html).toContain('Acme &#60;Tools&#62; &#38; &#34;Sons&#34;');
    expect(html).not.toContain('<Tools>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="https://finops.example/i/inv_abc&#34;&#62;&#60;script&#62;x&#60;/script&#62;"');
    expect(html).not.toContain('ignore this reminder');
  });

  it('leaves out what an invoice does not have, and says more in a reminder', () => {
    const html = invoiceEmailHtml({ ...content, due: null, link: null, payment: [], reminder: true });
    expect(html).not.toContain('Due date');
    expect(html).not.toContain('href=');
    expect(html).toContain('please ignore this reminder');
  });
});
