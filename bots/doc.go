// Package bots decides who is behind a User-Agent header: a named crawler
// (Googlebot, bingbot, GPTBot, ...), an HTTP library or script (curl,
// python-requests, Go-http-client, ...), or a browser, which is never a bot:
// a person's requests are not a crawler's to audit.
//
// Identify looks in three places, in order:
//
//  1. The project's table of known crawlers and tools (Crawlers). A table
//     token applies when it appears in the header as a product name,
//     case-insensitively, with a boundary on both sides: the start or end of
//     the header, or one of space, tab, '(', ')', ';', '/', ',', '+', '[',
//     ']', '"', '\”. That is the rule by which robots.txt names a product (RFC 9309
//     §2.2.1) widened by
//     ')', '+' and the brackets and quotes, because crawlers write their
//     token at the end of a comment ("(compatible; Exabot-Thumbnails)") and
//     W3C/IIS logs write spaces as '+'. '-', '_' and '.' are not boundaries,
//     so "Googlebot-Image" never matches the token "Googlebot". When several
//     tokens apply, a crawler beats a library ("LinkedInBot ...
//     Apache-HttpClient" is LinkedInBot), then the longest token wins
//     (Googlebot-Image before Googlebot), then the leftmost. The scan looks
//     only at boundary positions, through an index on the first two
//     lowercased bytes of each token, so it is linear in the header.
//  2. Generic signals of an unlisted crawler, which browsers never show:
//     a product name with a crawler word in it (a word ending in "bot" or
//     "bots", or containing crawl, spider, spyder, scraper, fetch, archiver,
//     indexer, slurp, scan, check, validator, preview, monitor, headless,
//     http client, subscriber, agent, synthetic, uptime, proxy or webhook),
//     outside comments or as an item of a comment; a product named like a
//     domain ("seo4ajax.com"); a URL or e-mail address anywhere
//     ("(compatible; Foo/1.0; +https://foo.example)"); or a
//     "(compatible; Foo)" comment that imitates no browser (no MSIE, Windows,
//     Mac OS, Linux, X11, ...). The bot's name is that product name as
//     written (with up to three plain words before it: "FAST Enterprise
//     Crawler"); for a URL, the first product that is not a browser's, else
//     the comment item before the URL, else the URL's host. Comments of
//     mobile devices ("(Linux; Android 10; CUBOT X30)") are not searched for
//     crawler words unless they carry a URL, since phone models contain
//     "bot".
//  3. uap-go (github.com/ua-parser/uap-go), which is slow (see the
//     benchmarks), so it runs only when the first two are silent and the
//     header is not plainly a browser (every product a browser product, no
//     signal in any comment). Its device family "Spider" marks a crawler,
//     named by uap's user-agent family when that is written in the header,
//     else by the header's first product that is not a browser product.
//     A "Spider" whose user-agent family is a browser is not a bot (uap marks
//     "CUBOT" phones as spiders). uap sees at most the first 1024 bytes of a
//     header, which keeps a hostile 100 KB header from costing a full regexp
//     scan per uap pattern.
//
// Decisions where the contract is silent:
//   - An empty header, "-" or blanks is a bot named "(no user agent)",
//     purpose "script": browsers always send one, scripts and scanners often
//     do not. Audits thus count and block those clients like any other bot.
//   - A bot found by 2 or 3 has Known false, purpose "other" and no
//     operator, unless its name extends a table token with '-' (an unlisted
//     "Googlebot-Foo" inherits Google and its purpose).
//   - Applications that are not browsers and show no signal (an iOS app's
//     "MyApp/1.0 CFNetwork/1408 Darwin/22.5.0", Android's "Dalvik/2.1.0")
//     are not bots; libraries in the table (okhttp, Dart) are, even when an
//     app on a phone uses them.
//   - The name of a bot that is not in the table is cut to 128 bytes.
//   - Tokens written only in robots.txt (Google-Extended, Applebot-Extended)
//     are in the table for their operator and purpose; a header that carries
//     one anyway is identified by it.
//   - A non-bot's Bot is the zero value apart from IsBot false: browsers are
//     not named, so nothing downstream can group by them by mistake.
package bots
