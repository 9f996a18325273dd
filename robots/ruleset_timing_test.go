package robots

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// realisticGroup returns a 150-rule group modelled on real robots.txt files
// of WordPress, Drupal and Magento sites: directory disallows, allows under
// them, session and sort parameters with wildcards, file types anchored
// with "$".
func realisticGroup() []Rule {
	lines := []string{
		// WordPress
		"Disallow: /wp-admin/", "Allow: /wp-admin/admin-ajax.php", "Disallow: /wp-includes/",
		"Allow: /wp-includes/js/", "Allow: /wp-includes/css/", "Disallow: /wp-content/plugins/",
		"Allow: /wp-content/plugins/*.css", "Allow: /wp-content/plugins/*.js", "Disallow: /wp-content/cache/",
		"Disallow: /wp-json/", "Disallow: /xmlrpc.php", "Disallow: /wp-login.php", "Disallow: /trackback/",
		"Disallow: /*/trackback/", "Disallow: /feed/", "Disallow: /*/feed/", "Disallow: /comments/feed/",
		"Disallow: /*?replytocom=", "Disallow: /?s=", "Disallow: /*?s=", "Disallow: /search/",
		"Disallow: /author/", "Disallow: /tag/*/page/", "Disallow: /*/embed/", "Disallow: /*?preview=true",
		"Disallow: /cgi-bin/", "Disallow: /*?p=", "Disallow: /*&p=",
		// Drupal
		"Allow: /core/*.css$", "Allow: /core/*.css?", "Allow: /core/*.js$", "Allow: /core/*.js?",
		"Allow: /core/*.gif", "Allow: /core/*.jpg", "Allow: /core/*.png", "Allow: /core/*.svg",
		"Allow: /profiles/*.css$", "Allow: /profiles/*.js$", "Disallow: /core/", "Disallow: /profiles/",
		"Disallow: /README.txt", "Disallow: /web.config", "Disallow: /admin/", "Disallow: /comment/reply/",
		"Disallow: /filter/tips", "Disallow: /node/add/", "Disallow: /user/register", "Disallow: /user/password",
		"Disallow: /user/login", "Disallow: /user/logout", "Disallow: /media/oembed", "Disallow: /*/media/oembed",
		"Disallow: /index.php/admin/", "Disallow: /index.php/comment/reply/", "Disallow: /index.php/filter/tips",
		"Disallow: /index.php/node/add/", "Disallow: /index.php/search/", "Disallow: /index.php/user/password",
		"Disallow: /index.php/user/register", "Disallow: /index.php/user/login", "Disallow: /index.php/user/logout",
		// Magento
		"Disallow: /index.php/", "Disallow: /*?SID=", "Disallow: /checkout/", "Disallow: /onestepcheckout/",
		"Disallow: /customer/", "Disallow: /customer/account/", "Disallow: /customer/account/login/",
		"Disallow: /catalogsearch/", "Disallow: /catalog/product_compare/", "Disallow: /catalog/category/view/",
		"Disallow: /catalog/product/view/", "Disallow: /review/", "Disallow: /sendfriend/", "Disallow: /wishlist/",
		"Disallow: /app/", "Disallow: /downloader/", "Disallow: /errors/", "Disallow: /includes/", "Disallow: /lib/",
		"Disallow: /pkginfo/", "Disallow: /shell/", "Disallow: /var/", "Disallow: /*.php$", "Disallow: /*?dir*",
		"Disallow: /*?dir=desc", "Disallow: /*?dir=asc", "Disallow: /*?limit=all", "Disallow: /*?mode*",
		"Disallow: /*?price=", "Disallow: /*&price=", "Disallow: /*?cat=", "Disallow: /*&cat=",
		"Allow: /*.js$", "Allow: /*.css$", "Allow: /media/catalog/product/", "Disallow: /media/",
		// Generic
		"Disallow: /*?*sessionid=", "Disallow: /*sessionid=", "Disallow: /*.pdf$", "Disallow: /*.doc$",
		"Disallow: /*.xls$", "Disallow: /*.zip$", "Disallow: /tmp/", "Disallow: /private/",
		"Allow: /private/press/", "Disallow: /api/", "Allow: /api/public/", "Disallow: /*/print$",
		"Disallow: /*?print=1", "Disallow: /*utm_source=", "Disallow: /cart", "Disallow: /account",
		"Disallow: /login", "Disallow: /register", "Disallow: /*/edit$", "Disallow: /*/revisions/",
		"Allow: /", "Disallow: /%E6%97%A5%E6%9C%AC/private/", "Disallow: /caf%C3%A9/admin",
	}
	for i := 0; len(lines) < 150; i++ {
		switch i % 3 {
		case 0:
			lines = append(lines, fmt.Sprintf("Disallow: /archive/%d/drafts/", 2000+i))
		case 1:
			lines = append(lines, fmt.Sprintf("Disallow: /shop/category-%d/*?filter=", i))
		default:
			lines = append(lines, fmt.Sprintf("Allow: /archive/%d/drafts/public-", 2000+i-2))
		}
	}
	return group(lines...)
}

// realisticTargets returns n request targets as an access log has them:
// mostly allowed pages, assets and listings with query strings, some
// percent-encoded, a few long, and some that a rule disallows.
func realisticTargets(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"news", "blog", "products", "category", "shoes", "summer-sale", "about-us", "contact",
		"how-to-tie-a-tie", "2024", "05", "review", "widget-123", "garden", "tools", "page", "docs", "guide"}
	w := func() string { return words[r.IntN(len(words))] }
	var out [][]byte
	for len(out) < n {
		var s string
		switch k := r.IntN(100); {
		case k < 30:
			s = fmt.Sprintf("/%s/%s/%s-%d/", w(), w(), w(), r.IntN(1000))
		case k < 45:
			s = fmt.Sprintf("/%s/%s?page=%d&sort=%s", w(), w(), r.IntN(50), w())
		case k < 55:
			s = fmt.Sprintf("/wp-content/uploads/2024/%02d/%s-%d.jpg", r.IntN(12)+1, w(), r.IntN(9999))
		case k < 60:
			s = fmt.Sprintf("/search?q=caf%%C3%%A9+%s&lang=fr", w())
		case k < 63:
			s = fmt.Sprintf("/wiki/%%E6%%97%%A5%%E6%%9C%%AC/%s", w())
		case k < 66:
			s = fmt.Sprintf("/%s/%s?utm_campaign=%s&fbclid=%s", w(), w(), w(), strings.Repeat("AbC9", 40))
		case k < 70:
			s = fmt.Sprintf("/%s/%s.pdf", w(), w())
		case k < 73:
			s = fmt.Sprintf("/%s?sessionid=%x", w(), r.Uint64())
		case k < 76:
			s = fmt.Sprintf("/wp-admin/%s.php", w())
		case k < 80:
			s = fmt.Sprintf("/core/themes/%s/%s.css?v=%d", w(), w(), r.IntN(100))
		case k < 84:
			s = fmt.Sprintf("/catalog/product/view/id/%d/?dir=asc", r.IntN(9999))
		case k < 88:
			s = fmt.Sprintf("/%s/%s/feed/", w(), w())
		case k < 92:
			s = fmt.Sprintf("/shop/category-%d/%s?filter=%s", r.IntN(60), w(), w())
		case k < 96:
			s = fmt.Sprintf("/archive/%d/drafts/public-%s", 2000+r.IntN(50), w())
		default:
			s = "/"
		}
		out = append(out, []byte(s))
	}
	return out
}

func benchDecide(b *testing.B, rs *RuleSet, targets [][]byte) {
	var size int
	for _, t := range targets {
		size += len(t)
	}
	b.SetBytes(int64(size / len(targets)))
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	var disallowed int
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	cpu0 := threadCPU()
	for i := 0; i < b.N; i++ {
		var r int
		r, buf = rs.Decide(targets[i%len(targets)], buf)
		if r == Unlisted || r >= 0 && !rs.rules[r].Allow {
			disallowed++
		}
	}
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
	if cpu > 0 {
		// On a shared machine wall-clock time includes waiting for a
		// core; thread CPU time does not.
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "decisions/cpu-s")
	}
	b.ReportMetric(100*float64(disallowed)/float64(b.N), "%disallowed")
}

// BenchmarkDecideRealistic: 150 rules with wildcards, 1,000 log-like
// targets. Target: >= 5e6 decisions/s with -cpu 1, 0 allocs/op. Under
// spc2 the rules are read as a 2.0.0 record's.
func BenchmarkDecideRealistic(b *testing.B) {
	for _, p := range []Profile{RFC9309, Koster1996, Spc2} {
		b.Run(p.String(), func(b *testing.B) {
			benchDecide(b, CompileRules(realisticGroup(), p), realisticTargets(1000))
		})
	}
}

// BenchmarkDecidePathological: wildcard-heavy patterns against huge targets.
func BenchmarkDecidePathological(b *testing.B) {
	long := func(n int, c string) []byte { return []byte("/" + strings.Repeat(c, n)) }
	cases := []struct {
		name    string
		pattern string
		target  []byte
	}{
		{"1000stars-100KB-miss", strings.Repeat("*a", 1000) + "b", long(100<<10, "a")},
		{"1000stars-100KB-hit", "/" + strings.Repeat("*a", 1000), long(100<<10, "a")},
		{"1000stars-anchored-100KB", strings.Repeat("*a", 1000) + "b$", long(100<<10, "a")},
		{"longpiece-100KB", "/*" + strings.Repeat("ab", 100) + "c", long(50<<10, "ab")},
		{"percent-100KB", "/*%41%42x", long(100<<10/3, "%41")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			rs := CompileRules([]Rule{{Pattern: c.pattern, Line: 1}}, RFC9309)
			benchDecide(b, rs, [][]byte{c.target})
		})
	}
}

// BenchmarkDecideManyRules: big groups, as some real files have them.
func BenchmarkDecideManyRules(b *testing.B) {
	targets := realisticTargets(1000)
	for _, n := range []int{1000, 10000} {
		var prefixes, wild []string
		for i := 0; i < n; i++ {
			prefixes = append(prefixes, fmt.Sprintf("Disallow: /%s/item-%d/", []string{"news", "shop", "blog", "docs"}[i%4], i))
			wild = append(wild, fmt.Sprintf("Disallow: /*?filter%d=", i))
		}
		b.Run(fmt.Sprintf("prefixes-%d", n), func(b *testing.B) {
			benchDecide(b, CompileRules(group(prefixes...), RFC9309), targets)
		})
		b.Run(fmt.Sprintf("wildcards-%d", n), func(b *testing.B) {
			benchDecide(b, CompileRules(group(wild...), RFC9309), targets)
		})
	}
	b.Run("realistic-100KB-target", func(b *testing.B) {
		long := []byte("/search?q=" + strings.Repeat("caf%C3%A9+&x=/?.", 100<<10/16))
		benchDecide(b, CompileRules(realisticGroup(), RFC9309), [][]byte{long})
	})
}

// BenchmarkCompileRules: compiling the realistic group.
func BenchmarkCompileRules(b *testing.B) {
	rules := realisticGroup()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CompileRules(rules, RFC9309)
	}
}
