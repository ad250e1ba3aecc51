// Loads each timeline file into speedscope in headless Chromium, as a user would (the Browse button), and
// checks what speedscope says: no alert, no "Something went wrong", no warning about slices that end out of
// order or stay open, and a Sandwich view with at least one function in it.
const { chromium } = require('playwright-core');
const path = require('path');

async function check(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
  const problems = [];
  page.on('dialog', async (d) => { problems.push('alert: ' + d.message()); await d.dismiss(); });
  page.on('console', (m) => {
    const t = m.text();
    if (/Tried to end|still open at end|Failed to load|Unrecognized/.test(t)) problems.push('console: ' + t);
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  await page.goto('file://' + process.env.SPEEDSCOPE);
  await page.setInputFiles('#file', file);
  // the import is done when the view switcher appears (or an error shows)
  await page.waitForFunction(() => document.body.innerText.includes('Sandwich')
      || document.body.innerText.includes('Something went wrong'), null, { timeout: 30000 }).catch(() => {
    problems.push('speedscope did not show the profile within 30 s');
  });
  const text = await page.evaluate(() => document.body.innerText);
  if (text.includes('Something went wrong')) problems.push('speedscope: Something went wrong');
  let functions = 0;
  if (text.includes('Sandwich')) {
    if (process.env.SCREENSHOT && path.basename(file) === 'etm3-a9-thumb.json') {
      await page.waitForTimeout(500);
      await page.screenshot({ path: process.env.SCREENSHOT });
    }
    await page.getByText('Sandwich').click();
    await page.waitForTimeout(500);
    // the Sandwich view's table: a row per function with frames (total time, self time, name)
    const sandwich = await page.evaluate(() => document.body.innerText);
    functions = (sandwich.match(/\t[\d.]+(ns|µs|ms|s) \([^)]*\)\n\t[^\n]+/g) || []).length;
    if (functions === 0) problems.push('speedscope shows no frames');
  }
  const title = await page.title();
  await page.close();
  return { problems, functions, title };
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
  let failed = 0;
  for (const file of process.argv.slice(2)) {
    const name = path.basename(file, '.json');
    const r = await check(browser, file);
    if (r.problems.length > 0) {
      failed++;
      console.log(`timeline-check: ${name}: FAILED: ${r.problems.join('; ')}`);
    } else {
      console.log(`timeline-check: ${name}: speedscope shows frames (${r.functions} functions on screen in its Sandwich view)`);
    }
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error('timeline-check: ' + e.message); process.exit(1); });
