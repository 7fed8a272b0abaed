// What a person sees of `nearcrawl serve` in a real browser: Debian's
// Chromium, headless, driven by playwright-core (no browser of its own).
//
//   node tests/tools/serve-browser.mjs BASE SHOTS NEAR HOSTILE [QUERY]
//
// BASE: the view's URL (http://127.0.0.1:PORT); SHOTS: a folder for the
// screenshots; NEAR: the id of a near page whose original is in the crawl;
// HOSTILE: the id of a page titled with markup; QUERY: a search to run
// (its results must fold duplicates), or nothing when the view has no
// search. Prints one "ok   NAME" or "FAIL NAME: why" line per check, and
// exits 1 when one failed. CHROMIUM names the browser (default
// /usr/bin/chromium).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const [base, shots, nearId, hostileId, query] = process.argv.slice(2);
if (!base || !shots || !nearId || !hostileId) {
	console.error('usage: serve-browser.mjs BASE SHOTS NEAR HOSTILE [QUERY]');
	process.exit(2);
}
mkdirSync(shots, { recursive: true });

let failed = 0;
function check(name, good, why = '') {
	if (good) {
		console.log(`ok   ${name}`);
	} else {
		failed++;
		console.log(`FAIL ${name}${why ? ': ' + why : ''}`);
	}
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
const problems = [];   // console errors and warnings, uncaught errors
const dialogs = [];    // alert(), confirm(), prompt() that fired
const elsewhere = [];  // requests for anything not the view's own
page.on('console', (m) => {
	if (m.type() === 'error' || m.type() === 'warning')
		problems.push(`${m.type()}: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
page.on('dialog', async (d) => {
	dialogs.push(d.message());
	await d.dismiss();
});
page.on('request', (r) => {
	const u = r.url();
	if (!u.startsWith(base) && !u.startsWith('data:'))
		elsewhere.push(u);
});

async function visit(path, shot) {
	const res = await page.goto(base + path, { waitUntil: 'load' });
	if (shot)
		await page.screenshot({ path: `${shots}/${shot}.png`, fullPage: true });
	return res ? res.status() : 0;
}

// The overview: the counts and the report's plots, all drawn.
check('the overview answers 200', (await visit('/', null)) === 200);
for (let i = 0; i < 50; i++) {
	if (await page.locator('#summary').count() > 0)
		break;
	await page.waitForTimeout(200);
	await visit('/', null);
}
await page.screenshot({ path: `${shots}/overview.png`, fullPage: true });
const pages = await page.locator('#n-pages').innerText();
check('the overview shows the page count', /^[0-9,]+\s*pages$/.test(pages.trim()), pages);
check("the overview shows the report's summary",
    (await page.locator('#summary').innerText()).includes('Pages fetched'));
const images = await page.evaluate(() => {
	const im = [...document.images];
	return { n: im.length, drawn: im.filter((i) => i.complete && i.naturalWidth > 0).length };
});
check(`the plots are drawn (${images.drawn} of ${images.n})`,
    images.n >= 4 && images.drawn === images.n);

// The largest cluster, opened as a person would: from the clusters page.
await visit('/clusters', null);
const first = page.locator('#clusters a').first();
const copies = Number((await page.locator('#clusters td.n').nth(1).innerText()).replace(/,/g, ''));
await first.click();
await page.waitForLoadState('load');
await page.screenshot({ path: `${shots}/cluster.png`, fullPage: true });
const rows = await page.locator('#members tr').count();
check(`the cluster lists every member (${copies} and its original)`,
    rows === Math.min(copies, 200) + 2, `${rows} rows`);
check('the cluster says how many repeat it',
    (await page.locator('#count').innerText()).startsWith(`${copies} duplicate`));

// A near page beside its original: the new words marked, the verdict said.
check('the page view answers 200', (await visit(`/page/${nearId}`, 'page')) === 200);
const marked = await page.locator('.cols > div:first-child mark').allInnerTexts();
check('its new words are marked', marked.includes('fortnight'), marked.join(' '));
check('and only they (6)', marked.length === 6, marked.join(' '));
check('nothing is marked in the original',
    await page.locator('.cols > div:nth-child(2) mark').count() === 0);
check('the figures say near', (await page.locator('#holds').innerText()) === 'near');
const orig = await page.locator('#originals a').first().innerText();
check('its original is named with its title, as text', orig.includes('<script>alert(3)</script>'), orig);

// The hostile page: its markup shown, nothing run.
check('the hostile page answers 200', (await visit(`/page/${hostileId}`, 'hostile')) === 200);
const h1 = await page.locator('h1#title').innerText();
check('its title is shown as text', h1 === '<script>alert(1)</script> & "quotes" \'too\'', h1);
check('the text keeps its markup as text',
    (await page.locator('.text').innerText()).includes('<img src=x onerror=alert(2)>'));
check('no element came from the text',
    await page.locator('main script, main img, main textarea').count() === 0);
await visit('/pages?host=www.inject.test', 'pages');
check('the listing shows the titles as text',
    (await page.locator('#pages').innerText()).includes('<script>alert(4)</script> print view'));

// Search: the results, the folded count, the omitted members on request.
if (query) {
	await visit('/', null);
	await page.fill('nav input[name=q]', query);
	await page.press('nav input[name=q]', 'Enter');
	await page.waitForLoadState('load');
	await page.screenshot({ path: `${shots}/search.png`, fullPage: true });
	const hits = await page.locator('.hit').count();
	check(`the search finds results (${hits})`, hits > 0);
	const marks = await page.locator('.hit .s mark').count();
	check('the snippets mark the matched words', marks > 0);
	const folded = page.locator('.hit .fold a').first();
	const said = await folded.count() > 0 ? await folded.innerText() : '';
	const m = said.match(/^([0-9]+) similar pages? omitted/);
	check('a folded count is shown', m !== null, said);
	if (m) {
		await folded.click();
		await page.waitForLoadState('load');
		await page.screenshot({ path: `${shots}/search-all.png`, fullPage: true });
		const members = await page.locator('.hit .member').count();
		check(`showing them lists the ${m[1]} omitted pages`, members >= Number(m[1]),
		    `${members}`);
	}
}

check('no alert or other dialog fired', dialogs.length === 0, dialogs.join(' | '));
check('no console error or warning', problems.length === 0, problems.join(' | '));
check('nothing was loaded from elsewhere', elsewhere.length === 0, elsewhere.join(' '));
await browser.close();
process.exit(failed > 0 ? 1 : 0);
