package loggen

import (
	"math/rand/v2"
	"strconv"
)

// section is a part of the generated site. Which sections a robots.txt
// version disallows is decided by the embedded files, not here.
type section uint8

const (
	secHome         section = iota
	secProduct              // /products/<slug>, sometimes ?color= or a stale ?sessionid=
	secCategory             // /category/<name>/ with ?page= and &sort=
	secBlog                 // /blog/2026/09/<slug>
	secDocs                 // /docs/<section>/<page>
	secWiki                 // /wiki/<Title>, percent-encoded UTF-8; /wiki/Spezial:... (disallowed)
	secUebersicht           // /%C3%BCbersicht/ (allowed) and /%C3%BCbersicht/intern/... (disallowed)
	secPrivate              // /private/press/... (allowed) and /private/... (disallowed)
	secArchive              // /archive/2025/... (disallowed from v3) and /archive/2026/...
	secBeta                 // /beta/... (disallowed from v2)
	secFeed                 // /feeds/rss.xml
	secSitemap              // /sitemap.xml, /sitemaps/products.xml
	secSearch               // /search?q=... (disallowed)
	secAccount              // /account/... (disallowed)
	secCart                 // /cart/... (disallowed)
	secCheckout             // /checkout/... (disallowed)
	secPrint                // /print/... (disallowed)
	secPDF                  // /docs/public/*.pdf (allowed), /docs/manuals/*.pdf (disallowed)
	secImage                // /images/products/*.jpg
	secPrivateImage         // /images/private/*.jpg (disallowed for Googlebot-Image)
	secJunk                 // vulnerability scanning: /wp-login.php, /.env, /admin/ ...
	secAPI                  // /api/v1/... (disallowed)
	secRawUTF8              // non-ASCII paths sent unencoded by scripts
	numSections
)

// kind says how a response looks (status and size).
type kind uint8

const (
	kindPage kind = iota
	kindAsset
	kindImage
	kindPDF
	kindAPI
	kindJunk
	kindRobots
	kindRedirect // POST /cart/add and the like
)

type weighted struct {
	sec    section
	weight float64
}

// A weighted choice among sections.
type sectionPick struct {
	secs []section
	cum  []float64
}

func newSectionPick(ws []weighted) sectionPick {
	var p sectionPick
	total := 0.0
	for _, w := range ws {
		total += w.weight
		p.secs = append(p.secs, w.sec)
		p.cum = append(p.cum, total)
	}
	return p
}

func (p *sectionPick) pick(rng *rand.Rand) section {
	x := rng.Float64() * p.cum[len(p.cum)-1]
	for i, c := range p.cum {
		if x < c {
			return p.secs[i]
		}
	}
	return p.secs[len(p.secs)-1]
}

var (
	adjectives = []string{"classic", "urban", "alpine", "compact", "vintage", "light", "thermal", "rugged",
		"organic", "smart", "wireless", "foldable", "merino", "bamboo", "carbon", "steel", "linen", "waxed",
		"retro", "nordic"}
	nouns = []string{"jacket", "backpack", "lamp", "kettle", "sneaker", "scarf", "tent", "mug", "chair",
		"headphones", "watch", "bottle", "blanket", "wallet", "umbrella", "bicycle-bell", "notebook",
		"sweater", "desk", "speaker"}
	colors     = []string{"red", "black", "navy", "olive", "sand", "white"}
	categories = []string{"outdoor", "home", "kitchen", "fashion", "electronics", "office", "sale", "new-in"}
	blogSlugs  = []string{"how-to-pack-for-a-week", "winter-care-guide", "behind-the-scenes-at-our-workshop",
		"five-ways-to-reuse-packaging", "our-2026-sustainability-report", "gift-guide", "repair-dont-replace",
		"the-story-of-merino", "what-is-waxed-cotton", "meet-the-team"}
	docsPages = []string{"getting-started", "shipping", "returns", "warranty", "size-guide", "care",
		"payment", "faq"}
	docsSections = []string{"help", "guides", "legal"}
	// Percent-encoded UTF-8 titles as browsers send them.
	wikiTitles = []string{"Caf%C3%A9", "M%C3%BCnchen", "Stra%C3%9Fe", "%E6%97%A5%E6%9C%AC",
		"Z%C3%BCrich", "Cr%C3%A8me_br%C3%BBl%C3%A9e", "%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", "Merino_wool",
		"Bicycle_bell", "%C3%85lesund"}
	// The same kind of paths, unencoded, as some scripts send them.
	rawUTF8Paths = []string{"/wiki/Café", "/wiki/München", "/übersicht/", "/wiki/日本", "/tag/größe"}
	searchTerms  = []string{"winter+jacket", "caf%C3%A9+cr%C3%A8me", "merino", "lamp", "r%C3%BCcksack",
		"%E6%97%A5%E6%9C%AC", "gift+card", "sale", "size+guide", "bottle%201l"}
	junkPaths = []string{"/wp-login.php", "/.env", "/admin/", "/wp-admin/install.php", "/xmlrpc.php",
		"/.git/config", "/phpmyadmin/", "/cgi-bin/luci", "/admin/config.php", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php"}
	apiPaths = []string{"/api/v1/products", "/api/v1/products?page=2", "/api/v1/health", "/api/v1/stock?sku=4711",
		"/api/v1/search?q=lamp"}
	assetPaths = []string{"/static/css/main.3f9a1c.css", "/static/js/app.8b2e4d.js", "/static/js/vendor.1c7f90.js",
		"/static/fonts/inter-var.woff2", "/favicon.ico"}
)

func pickStr(rng *rand.Rand, s []string) string { return s[rng.IntN(len(s))] }

func appendSlug(b []byte, rng *rand.Rand) []byte {
	b = append(b, pickStr(rng, adjectives)...)
	b = append(b, '-')
	return append(b, pickStr(rng, nouns)...)
}

func appendHex(b []byte, rng *rand.Rand, n int) []byte {
	const hex = "0123456789abcdef"
	for range n {
		b = append(b, hex[rng.IntN(16)])
	}
	return b
}

// appendPath appends a target of section sec to b and returns it with the
// kind of response it gets. human selects the variants people produce
// (stale session ids, sort orders) more often.
func appendPath(b []byte, rng *rand.Rand, sec section, human bool) ([]byte, kind) {
	switch sec {
	case secHome:
		return append(b, '/'), kindPage
	case secProduct:
		b = append(b, "/products/"...)
		b = appendSlug(b, rng)
		switch x := rng.IntN(100); {
		case x < 10:
			b = append(b, "?color="...)
			b = append(b, pickStr(rng, colors)...)
		case x < 12 || human && x < 16:
			b = append(b, "?sessionid="...)
			b = appendHex(b, rng, 16)
		case x < 14:
			b = append(b, "?color="...)
			b = append(b, pickStr(rng, colors)...)
			b = append(b, "&sessionid="...)
			b = appendHex(b, rng, 16)
		}
		return b, kindPage
	case secCategory:
		b = append(b, "/category/"...)
		b = append(b, pickStr(rng, categories)...)
		b = append(b, '/')
		switch x := rng.IntN(100); {
		case x < 30:
			b = append(b, "?page="...)
			b = strconv.AppendInt(b, int64(2+rng.IntN(12)), 10)
		case x < 40 || human && x < 55:
			b = append(b, "?page="...)
			b = strconv.AppendInt(b, int64(1+rng.IntN(5)), 10)
			b = append(b, "&sort=price"...)
		case x < 45:
			b = append(b, "?sort=newest"...)
		}
		return b, kindPage
	case secBlog:
		b = append(b, "/blog/2026/0"...)
		b = strconv.AppendInt(b, int64(7+rng.IntN(3)), 10)
		b = append(b, '/')
		return append(b, pickStr(rng, blogSlugs)...), kindPage
	case secDocs:
		b = append(b, "/docs/"...)
		b = append(b, pickStr(rng, docsSections)...)
		b = append(b, '/')
		return append(b, pickStr(rng, docsPages)...), kindPage
	case secWiki:
		if rng.IntN(10) == 0 {
			b = append(b, "/wiki/Spezial:Suche?search="...)
			return append(b, pickStr(rng, searchTerms)...), kindPage
		}
		b = append(b, "/wiki/"...)
		return append(b, pickStr(rng, wikiTitles)...), kindPage
	case secUebersicht:
		if rng.IntN(3) == 0 {
			b = append(b, "/%C3%BCbersicht/intern/bericht-2026-q"...)
			return strconv.AppendInt(b, int64(1+rng.IntN(4)), 10), kindPage
		}
		b = append(b, "/%C3%BCbersicht/"...)
		return append(b, pickStr(rng, categories)...), kindPage
	case secPrivate:
		if rng.IntN(2) == 0 {
			b = append(b, "/private/press/"...)
			return append(b, pickStr(rng, blogSlugs)...), kindPage
		}
		b = append(b, "/private/"...)
		return append(b, pickStr(rng, []string{"drafts/", "staff/handbook", "pricing-2027", "press-embargo/q4"})...), kindPage
	case secArchive:
		b = append(b, "/archive/"...)
		b = strconv.AppendInt(b, int64(2022+rng.IntN(5)), 10)
		b = append(b, '/')
		return append(b, pickStr(rng, blogSlugs)...), kindPage
	case secBeta:
		b = append(b, "/beta/"...)
		return append(b, pickStr(rng, []string{"new-checkout", "ar-preview", "wishlist", "compare"})...), kindPage
	case secFeed:
		return append(b, "/feeds/rss.xml"...), kindAsset
	case secSitemap:
		if rng.IntN(2) == 0 {
			return append(b, "/sitemap.xml"...), kindAsset
		}
		return append(b, "/sitemaps/products.xml"...), kindAsset
	case secSearch:
		b = append(b, "/search?q="...)
		b = append(b, pickStr(rng, searchTerms)...)
		if rng.IntN(4) == 0 {
			b = append(b, "&page="...)
			b = strconv.AppendInt(b, int64(2+rng.IntN(5)), 10)
		}
		return b, kindPage
	case secAccount:
		return append(b, pickStr(rng, []string{"/account/", "/account/login", "/account/orders", "/account/wishlist"})...), kindPage
	case secCart:
		if rng.IntN(3) == 0 {
			b = append(b, "/cart/add?sku="...)
			return strconv.AppendInt(b, int64(1000+rng.IntN(9000)), 10), kindRedirect
		}
		return append(b, "/cart/"...), kindPage
	case secCheckout:
		return append(b, pickStr(rng, []string{"/checkout/", "/checkout/shipping", "/checkout/payment", "/checkout/done"})...), kindPage
	case secPrint:
		b = append(b, "/print/products/"...)
		return appendSlug(b, rng), kindPage
	case secPDF:
		if rng.IntN(2) == 0 {
			b = append(b, "/docs/public/"...)
		} else {
			b = append(b, "/docs/manuals/"...)
		}
		b = append(b, pickStr(rng, nouns)...)
		return append(b, "-manual.pdf"...), kindPDF
	case secImage:
		b = append(b, "/images/products/"...)
		b = appendSlug(b, rng)
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(1+rng.IntN(4)), 10)
		return append(b, ".jpg"...), kindImage
	case secPrivateImage:
		b = append(b, "/images/private/team-"...)
		b = strconv.AppendInt(b, int64(1+rng.IntN(30)), 10)
		return append(b, ".jpg"...), kindImage
	case secJunk:
		return append(b, pickStr(rng, junkPaths)...), kindJunk
	case secAPI:
		return append(b, pickStr(rng, apiPaths)...), kindAPI
	case secRawUTF8:
		return append(b, pickStr(rng, rawUTF8Paths)...), kindPage
	}
	return append(b, '/'), kindPage
}

// response draws a status and a body size for a response of kind k.
func response(rng *rand.Rand, k kind, method string) (status int, size int64) {
	x := rng.IntN(1000)
	switch k {
	case kindJunk:
		if x < 950 {
			return 404, int64(1500 + rng.IntN(300))
		}
		return 403, 548
	case kindRobots:
		return 200, 0 // the caller sets the size of the robots.txt in effect
	case kindRedirect:
		return 302, 0
	case kindAPI:
		if x < 900 {
			return 200, int64(200 + rng.IntN(12000))
		}
		return 401, 61
	}
	switch {
	case x < 20:
		return 404, int64(1500 + rng.IntN(300))
	case x < 25:
		return 500 + 3*(x&1), int64(300 + rng.IntN(200))
	case x < 40:
		return 301, 0
	case x < 110:
		return 304, 0
	}
	if method == "HEAD" {
		return 200, 0
	}
	switch k {
	case kindAsset:
		return 200, int64(2000 + rng.IntN(180000))
	case kindImage:
		return 200, int64(15000 + rng.IntN(480000))
	case kindPDF:
		return 200, int64(80000 + rng.IntN(3000000))
	}
	return 200, int64(9000 + rng.IntN(70000))
}
