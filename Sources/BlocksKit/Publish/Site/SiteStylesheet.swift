/// The site's one stylesheet, `assets/site.css`: system fonts only (no font is fetched),
/// light and dark palettes from `prefers-color-scheme`, visible focus on every control,
/// and the rule that shows the chosen language.
///
/// Colours live in custom properties on `:root`. A property whose name ends in `bg` is
/// a background, `--border` and `--focus` draw lines; every other one is text, and
/// `SiteAccessibilityTests` computes its contrast against the backgrounds it sits on
/// (at least 4.5:1) in both palettes, from this very file.
enum SiteStylesheet {
    static let css = #"""
        :root {
          color-scheme: light dark;
          --bg: #ffffff;
          --fg: #1f2328;
          --muted: #59636e;
          --card-bg: #f6f8fa;
          --border: #8c959f;
          --focus: #bf3989;
          --link: #0a58ca;
          --badge-bg: #ddf4ff;
          --badge-fg: #0a3069;
          --button-bg: #0a58ca;
          --button-fg: #ffffff;
          --code-bg: #f6f8fa;
          --code-fg: #1f2328;
          --hl-keyword: #a0207c;
          --hl-string: #116329;
          --hl-comment: #59636e;
          --hl-number: #0550ae;
          --hl-attribute: #8a4600;
          --hl-type: #6639ba;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117;
            --fg: #e6edf3;
            --muted: #9198a1;
            --card-bg: #161b22;
            --border: #6e7681;
            --focus: #f778ba;
            --link: #6cb6ff;
            --badge-bg: #12263f;
            --badge-fg: #a5d6ff;
            --button-bg: #2f81f7;
            --button-fg: #0d1117;
            --code-bg: #161b22;
            --code-fg: #e6edf3;
            --hl-keyword: #ff7ab2;
            --hl-string: #7ee787;
            --hl-comment: #9198a1;
            --hl-number: #79c0ff;
            --hl-attribute: #ffa657;
            --hl-type: #d2a8ff;
          }
        }
        html[lang="es"] .t[lang="en"], html:not([lang="es"]) .t[lang="es"] { display: none !important; }
        [hidden] { display: none !important; }
        * { box-sizing: border-box; }
        body {
          margin: 0;
          background: var(--bg);
          color: var(--fg);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
        }
        a { color: var(--link); }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: 1rem; top: -3rem; background: var(--button-bg); color: var(--button-fg); padding: .5rem 1rem; z-index: 2; }
        .skip:focus { top: 1rem; }
        .site-header, main, .site-footer { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
        .site-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 1rem; padding-top: 1rem; padding-bottom: 1rem; border-bottom: 1px solid var(--border); }
        .site-name { font-weight: 700; font-size: 1.25rem; color: var(--fg); text-decoration: none; }
        .languages { display: flex; gap: .25rem; margin: 0; padding: 0; border: 0; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        .copy-status { color: var(--muted); font-size: .875rem; }
        button, select, input { font: inherit; color: inherit; }
        button {
          background: var(--button-bg); color: var(--button-fg); border: 1px solid var(--button-bg);
          border-radius: .375rem; padding: .25rem .75rem; cursor: pointer;
        }
        .languages button { background: var(--bg); color: var(--fg); border-color: var(--border); }
        .languages button[aria-pressed="true"] { background: var(--button-bg); color: var(--button-fg); border-color: var(--button-bg); }
        .tagline { color: var(--muted); }
        .search { display: grid; gap: .75rem; margin: 1.5rem 0 1rem; }
        .search label { font-weight: 600; }
        .search input[type="search"] {
          width: 100%; padding: .625rem .75rem; font-size: 1.125rem;
          background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: .375rem;
        }
        .filters { display: flex; flex-wrap: wrap; gap: 1rem; margin: 0; padding: 0; border: 0; }
        .filters legend { font-weight: 600; padding: 0; margin-bottom: .25rem; }
        .filters label { display: grid; gap: .125rem; font-weight: 400; color: var(--muted); }
        .filters select { background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: .375rem; padding: .375rem .5rem; }
        .status { color: var(--muted); min-height: 1.5em; }
        .cards { list-style: none; margin: 0 0 2rem; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
        .card {
          background: var(--card-bg); border: 1px solid var(--border); border-radius: .5rem; padding: 1rem;
          display: flex; flex-direction: column; gap: .5rem;
          content-visibility: auto; contain-intrinsic-size: auto 11rem;
        }
        .card h3 { margin: 0; font-size: 1.125rem; }
        .card .summary { margin: 0; color: var(--muted); overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
        .meta { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0; padding: 0; list-style: none; align-items: center; }
        .badge { background: var(--badge-bg); color: var(--badge-fg); border-radius: 1rem; padding: 0 .5rem; font-size: .875rem; }
        .level { color: var(--muted); font-size: .875rem; }
        .tags { display: flex; flex-wrap: wrap; gap: .25rem .75rem; margin: 0; padding: 0; list-style: none; font-size: .875rem; color: var(--muted); }
        .tags li::before { content: "#"; }
        .breadcrumbs { margin: 1rem 0 0; font-size: .9375rem; }
        .block h1 { margin: .5rem 0; }
        .block .lede { font-size: 1.125rem; margin-top: 0; }
        .block section { margin: 2rem 0; }
        .block h2 { border-bottom: 1px solid var(--border); padding-bottom: .25rem; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        dl.facts dt { font-weight: 600; }
        dl.facts dd { margin: 0; }
        .table-wrap { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        caption { text-align: left; color: var(--muted); padding-bottom: .5rem; }
        th, td { text-align: left; vertical-align: top; padding: .375rem .5rem; border-bottom: 1px solid var(--border); }
        code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .875rem; }
        th code, td code { overflow-wrap: anywhere; }
        .command { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
        .command code { background: var(--code-bg); color: var(--code-fg); padding: .375rem .625rem; border-radius: .375rem; border: 1px solid var(--border); }
        .file-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: .5rem; }
        .file-head h3 { margin: 0; font-size: 1rem; }
        .role { color: var(--muted); font-weight: 400; }
        pre.code { background: var(--code-bg); color: var(--code-fg); border: 1px solid var(--border); border-radius: .5rem; padding: 1rem; overflow-x: auto; line-height: 1.45; tab-size: 4; }
        .sha { font-size: .8125rem; overflow-wrap: anywhere; }
        .hl-k { color: var(--hl-keyword); }
        .hl-s { color: var(--hl-string); }
        .hl-c { color: var(--hl-comment); font-style: italic; }
        .hl-n { color: var(--hl-number); }
        .hl-a { color: var(--hl-attribute); }
        .hl-t { color: var(--hl-type); }
        .site-footer { border-top: 1px solid var(--border); color: var(--muted); padding-top: 1rem; padding-bottom: 2rem; font-size: .875rem; }
        @media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }

        """#
}
