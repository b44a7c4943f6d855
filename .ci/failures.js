// What failed, one line each, for the end of the CI log (which is what a reader of a failed run sees
// first): each failed test file with its time, and the first line of each failure inside it.
const fs = require('node:fs');

const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const root = process.cwd();
const firstLine = (text) =>
  String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('●')) ?? '';
let shown = 0;
for (const file of results.testResults ?? []) {
  if (file.status !== 'failed') continue;
  const seconds = ((file.endTime - file.startTime) / 1000).toFixed(0);
  console.log(
    `failed: ${file.name.replace(`${root}/`, '')} (${seconds} s)${file.message && !file.assertionResults?.some((a) => a.status === 'failed') ? ` ${firstLine(file.message).slice(0, 200)}` : ''}`,
  );
  for (const test of file.assertionResults ?? []) {
    if (test.status !== 'failed' || shown >= 40) continue;
    shown++;
    console.log(`  ✕ ${test.title}: ${firstLine(test.failureMessages?.[0]).slice(0, 200)}`);
  }
}
