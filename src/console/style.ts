/** The console's icon: the browser asks for one, and the CSP takes none from elsewhere. */
export const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5cad"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>';

/**
 * The console's one stylesheet, served as /console/style.css (the Content-Security-Policy takes
 * no inline style). System fonts, no images, contrast of at least 4.5:1 throughout.
 */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --line: #d0d7de;
  --bg: #ffffff; --panel: #f6f8fa; --accent: #0b5cad; --bad: #a40e26; --good: #116329;
  --warn: #7a4d00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center;
  padding: .6rem 1.2rem; background: var(--panel); border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
header .who { margin-left: auto; display: flex; gap: .6rem; align-items: center; color: var(--muted); }
main { padding: 1rem 1.2rem 3rem; max-width: 72rem; }
h1 { font-size: 1.4rem; margin: .4rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .6rem; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem;
  border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.when, td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.what { overflow-wrap: anywhere; }
form.inline { display: inline; }
.actions { white-space: nowrap; }
form.search { display: flex; gap: .5rem; margin: .4rem 0 1rem; }
form.search input { flex: 1; max-width: 36rem; }
input, select, button { font: inherit; padding: .35rem .6rem; border: 1px solid #6e7781;
  border-radius: 4px; background: #fff; color: var(--ink); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.quiet { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
label { display: block; margin: .6rem 0 .2rem; font-weight: 600; }
.notice { padding: .6rem .8rem; border-left: 4px solid var(--accent); background: var(--panel);
  margin: .6rem 0 1rem; }
.notice.bad { border-color: var(--bad); }
.notice.good { border-color: var(--good); }
.ok { color: var(--good); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); font-weight: 600; }
.tag { display: inline-block; min-width: 5.5rem; color: var(--muted); font-size: .85rem; }
.muted { color: var(--muted); }
ul.waits { margin: .2rem 0 1rem; padding-left: 1.2rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
`;
