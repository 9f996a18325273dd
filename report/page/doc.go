// Package page renders report.html, the report a person opens in a browser: one self-contained HTML
// file made with html/template from a report.Findings.
//
// # Decisions
//
//   - Self-contained: the style and the script are inline, the charts are
//     inline SVG, there is no image, font or link to another origin. A
//     Content-Security-Policy meta element forbids every fetch
//     (default-src 'none') and allows exactly the inline style and script by
//     their SHA-256 hashes, computed from the embedded files when the
//     package loads, so that a string injected into the page could not run
//     or load anything even if escaping failed.
//   - Readable without JavaScript: every figure is in an HTML table or an
//     SVG drawn here; each chart has its numbers in a table beside it. The
//     script only makes tables sortable.
//   - Escaping: every string from a log (bot names, User-Agents, paths,
//     addresses) reaches the page through html/template's contextual
//     escaping. The only values of the types template.CSS and template.JS are
//     the embedded style and script; no log string is ever one of
//     html/template's trusted types. Before that escaping, every value an
//     action prints goes through report.Printable (neutralised), as on the
//     terminal: control and bidirectional characters show as escapes.
//   - Bounded: every list is the top N of report.Findings, and the page says
//     N and the total.
package page
