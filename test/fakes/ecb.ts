import http from 'node:http';

/** Days of euro reference rates: `{ '2026-11-20': { USD: 1.0512, … } }`. */
export type RateDays = Record<string, Record<string, number>>;

/** The ECB reference-rate document for these days, newest first, as eurofxref-hist-90d.xml is. */
export function ecbXml(days: RateDays): string {
  const cubes = Object.keys(days)
    .sort()
    .reverse()
    .map(
      (time) =>
        `\t\t<Cube time='${time}'>\n${Object.entries(days[time])
          .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`)
          .join('\n')}\n\t\t</Cube>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes}
\t</Cube>
</gesmes:Envelope>`;
}

/** The rates source on loopback; `days` can be changed between requests, `status` forces an error. */
export async function startEcbFake(initial: RateDays) {
  const state = { days: initial, status: 200, requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    if (state.status !== 200) {
      res.writeHead(state.status, { 'content-type': 'text/html' });
      return res.end('<html><body>Service unavailable</body></html>');
    }
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(ecbXml(state.days));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/stats/eurofxref/eurofxref-hist-90d.xml`,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
