package loggen

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// ZipfExponent is the exponent s of the Zipf law by which the entries of a
// catalogue (Config.Paths) are requested: the entry of rank k (1-based) has
// probability k^-s / H(C, s) among its section's C entries.
const ZipfExponent = 1.0

// catalogued reports whether the targets of sec come from the host's
// catalogue when Config.Paths is set. The other sections (home, feeds,
// sitemaps, account, checkout, scanner junk, API, raw UTF-8 paths; assets
// and /robots.txt) keep their few fixed targets.
func catalogued(sec section) bool {
	switch sec {
	case secProduct, secCategory, secBlog, secDocs, secWiki, secUebersicht, secPrivate, secArchive,
		secBeta, secSearch, secCart, secPrint, secPDF, secImage, secPrivateImage:
		return true
	}
	return false
}

// fixedTargets is the number of distinct targets of a section that is not
// catalogued (0 for catalogued sections).
func fixedTargets(sec section) int {
	switch sec {
	case secHome, secFeed:
		return 1
	case secSitemap:
		return 2
	case secAccount, secCheckout:
		return 4
	case secJunk:
		return len(junkPaths)
	case secAPI:
		return len(apiPaths)
	case secRawUTF8:
		return len(rawUTF8Paths)
	}
	return 0
}

// catalogue is the set of targets of one host when Config.Paths is set:
// for each catalogued section, size[sec] entries requested with a Zipf law.
// Entry r of section sec is always the same target, and no two entries
// share one.
type catalogue struct {
	seed uint64
	host uint64
	size [numSections]int
	cdf  [numSections][]float64 // cumulative probabilities, cdf[C-1] == 1
	pcg  *rand.PCG              // reseeded per entry
	erng *rand.Rand             // draws from pcg
}

// zipfCDF returns the cumulative probabilities of a Zipf law over n ranks.
func zipfCDF(n int) []float64 {
	cdf := make([]float64, n)
	sum := 0.0
	for k := range n {
		sum += math.Pow(float64(k+1), -ZipfExponent)
		cdf[k] = sum
	}
	for k := range cdf {
		cdf[k] /= sum
	}
	cdf[n-1] = 1
	return cdf
}

// expectedDistinct returns the expected number of distinct ranks among d
// draws of a Zipf law over n ranks: the sum over ranks k of
// 1 - (1 - p_k)^d. Ranks past the first thousand are summed in buckets
// 0.5 % wide, evaluated at their middle (the terms vary slowly there).
func expectedDistinct(n int, d float64) float64 {
	if n <= 0 || d <= 0 {
		return 0
	}
	h := 0.0
	const exact = 1000
	for k := 1; k <= min(n, exact); k++ {
		h += math.Pow(float64(k), -ZipfExponent)
	}
	if n > exact { // Euler–Maclaurin for the tail of the harmonic sum
		a, b := float64(exact)+0.5, float64(n)+0.5
		if ZipfExponent == 1 {
			h += math.Log(b / a)
		} else {
			h += (math.Pow(b, 1-ZipfExponent) - math.Pow(a, 1-ZipfExponent)) / (1 - ZipfExponent)
		}
	}
	term := func(k float64) float64 {
		p := math.Pow(k, -ZipfExponent) / h
		return -math.Expm1(d * math.Log1p(-p))
	}
	e := 0.0
	for k := 1; k <= min(n, exact); k++ {
		e += term(float64(k))
	}
	for a := exact + 1; a <= n; {
		b := min(n+1, a+max(1, a/200))
		e += float64(b-a) * term(float64(a+b-1)/2)
		a = b
	}
	return e
}

// newCatalogue sizes the catalogue of a host so that about want distinct
// targets appear among the requests of the events planned for it
// (g.events[from:]). The draws expected in each section are counted from
// the events (a crawler's page by its interests, a browser's page by
// humanPages, a browser's later asset as a product image); each catalogued
// section gets a number of entries proportional to its draws, scaled by the
// one factor that makes the expected distinct count (fixed targets
// included) equal to want.
func (g *generator) newCatalogue(hi, from, want int) *catalogue {
	var draws [numSections]float64
	addShares := func(ws []weighted) {
		tot := 0.0
		for _, w := range ws {
			tot += w.weight
		}
		for _, w := range ws {
			draws[w.sec] += w.weight / tot
		}
	}
	for _, ev := range g.events[from:] {
		a := g.actors[ev.actor]
		switch {
		case a.prof != nil:
			if ev.flags&flagFetch == 0 {
				addShares(a.prof.interest)
			}
		case ev.flags&flagBurstStart != 0:
			addShares(humanPages)
		case ev.seq >= 1 && int(ev.seq) <= len(assetPaths):
			// a fixed asset of the first page
		default:
			draws[secImage]++
		}
	}
	fixed := len(assetPaths) + 1 // assets and /robots.txt
	for sec := range numSections {
		if draws[sec] >= 0.5 {
			fixed += fixedTargets(section(sec))
		}
	}
	target := float64(want - fixed)
	sizes := func(m float64) (s [numSections]int) {
		for sec := range numSections {
			if catalogued(section(sec)) && draws[sec] >= 0.5 {
				s[sec] = max(1, int(math.Round(m*draws[sec])))
			}
		}
		return s
	}
	expect := func(m float64) float64 {
		s := sizes(m)
		e := 0.0
		for sec := range numSections {
			e += expectedDistinct(s[sec], draws[sec])
		}
		return e
	}
	// Bisection on the factor m: the expectation grows with m, from about
	// one entry per section to every draw distinct.
	mLo, mHi := 0.0, 1.0
	for expect(mHi) < target && mHi < 1e4 {
		mLo, mHi = mHi, mHi*2
	}
	for range 40 {
		mid := (mLo + mHi) / 2
		if expect(mid) < target {
			mLo = mid
		} else {
			mHi = mid
		}
	}
	c := &catalogue{seed: uint64(g.cfg.Seed), host: uint64(hi), size: sizes(mHi)}
	for sec := range numSections {
		if n := c.size[sec]; n > 0 {
			c.cdf[sec] = zipfCDF(n)
		}
	}
	c.pcg = rand.NewPCG(0, 0)
	c.erng = rand.New(c.pcg)
	return c
}

// appendTarget appends a target of section sec: from the host's catalogue
// when it has one and sec is catalogued, else as appendPath does (so that
// without Config.Paths the random stream, and the output, stay as they
// were).
func (hp *hostPlan) appendTarget(b []byte, rng *rand.Rand, sec section, human bool) ([]byte, kind) {
	c := hp.cat
	if c == nil || c.cdf[sec] == nil {
		return appendPath(b, rng, sec, human)
	}
	r, _ := slices.BinarySearch(c.cdf[sec], rng.Float64())
	r = min(r, len(c.cdf[sec])-1)
	return c.appendEntry(b, sec, r)
}

// appendEntry appends entry r (0-based rank) of section sec. The entry's
// choices come from a random stream of its own, and r is written into the
// target where it keeps the target's meaning under the generated
// robots.txt (a product slug, a page of a category, a blog post), so that
// entries never coincide.
func (c *catalogue) appendEntry(b []byte, sec section, r int) ([]byte, kind) {
	c.pcg.Seed(c.seed, c.host<<40|1<<39|uint64(sec)<<32|uint64(uint32(r)))
	rng := c.erng
	id := func(b []byte) []byte { return strconv.AppendInt(b, int64(r+1), 10) }
	switch sec {
	case secProduct:
		b = append(b, "/products/"...)
		b = appendSlug(b, rng)
		b = append(b, '-')
		b = id(b)
		switch x := rng.IntN(100); {
		case x < 8:
			b = append(b, "?color="...)
			b = append(b, pickStr(rng, colors)...)
		case x < 11:
			b = append(b, "?sessionid="...)
			b = appendHex(b, rng, 16)
		case x < 13:
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
		b = append(b, pickStr(rng, nouns)...)
		b = append(b, '-')
		b = id(b)
		b = append(b, '/')
		switch x := rng.IntN(100); {
		case x < 30:
			b = append(b, "?page="...)
			b = strconv.AppendInt(b, int64(2+rng.IntN(12)), 10)
		case x < 42:
			b = append(b, "?page="...)
			b = strconv.AppendInt(b, int64(1+rng.IntN(5)), 10)
			b = append(b, "&sort=price"...)
		case x < 47:
			b = append(b, "?sort=newest"...)
		}
		return b, kindPage
	case secBlog:
		b = append(b, "/blog/"...)
		b = strconv.AppendInt(b, int64(2019+rng.IntN(8)), 10)
		b = append(b, '/')
		b = append2(b, 1+rng.IntN(12))
		b = append(b, '/')
		b = append(b, pickStr(rng, blogSlugs)...)
		b = append(b, '-')
		return id(b), kindPage
	case secDocs:
		b = append(b, "/docs/"...)
		b = append(b, pickStr(rng, docsSections)...)
		b = append(b, '/')
		b = append(b, pickStr(rng, docsPages)...)
		b = append(b, '-')
		return id(b), kindPage
	case secWiki:
		if rng.IntN(10) == 0 {
			b = append(b, "/wiki/Spezial:Suche?search="...)
			b = append(b, pickStr(rng, searchTerms)...)
			b = append(b, '+')
			return id(b), kindPage
		}
		b = append(b, "/wiki/"...)
		b = append(b, pickStr(rng, wikiTitles)...)
		b = append(b, '_')
		return id(b), kindPage
	case secUebersicht:
		if rng.IntN(3) == 0 {
			b = append(b, "/%C3%BCbersicht/intern/bericht-"...)
			return id(b), kindPage
		}
		b = append(b, "/%C3%BCbersicht/"...)
		b = append(b, pickStr(rng, categories)...)
		b = append(b, '/')
		return id(b), kindPage
	case secPrivate:
		if rng.IntN(2) == 0 {
			b = append(b, "/private/press/"...)
		} else {
			b = append(b, "/private/drafts/"...)
		}
		b = append(b, pickStr(rng, blogSlugs)...)
		b = append(b, '-')
		return id(b), kindPage
	case secArchive:
		b = append(b, "/archive/"...)
		b = strconv.AppendInt(b, int64(2022+rng.IntN(5)), 10)
		b = append(b, '/')
		b = append(b, pickStr(rng, blogSlugs)...)
		b = append(b, '-')
		return id(b), kindPage
	case secBeta:
		b = append(b, "/beta/"...)
		b = append(b, pickStr(rng, []string{"new-checkout", "ar-preview", "wishlist", "compare"})...)
		b = append(b, '-')
		return id(b), kindPage
	case secSearch:
		b = append(b, "/search?q="...)
		b = append(b, pickStr(rng, searchTerms)...)
		b = append(b, '+')
		b = append(b, pickStr(rng, nouns)...)
		b = append(b, '+')
		b = id(b)
		if rng.IntN(4) == 0 {
			b = append(b, "&page="...)
			b = strconv.AppendInt(b, int64(2+rng.IntN(5)), 10)
		}
		return b, kindPage
	case secCart:
		if r == 0 {
			return append(b, "/cart/"...), kindPage
		}
		b = append(b, "/cart/add?sku="...)
		return strconv.AppendInt(b, int64(1000+r), 10), kindRedirect
	case secPrint:
		b = append(b, "/print/products/"...)
		b = appendSlug(b, rng)
		b = append(b, '-')
		return id(b), kindPage
	case secPDF:
		if rng.IntN(2) == 0 {
			b = append(b, "/docs/public/"...)
		} else {
			b = append(b, "/docs/manuals/"...)
		}
		b = append(b, pickStr(rng, nouns)...)
		b = append(b, '-')
		b = id(b)
		return append(b, "-manual.pdf"...), kindPDF
	case secImage:
		b = append(b, "/images/products/"...)
		b = appendSlug(b, rng)
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(r/4+1), 10)
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(r%4+1), 10)
		return append(b, ".jpg"...), kindImage
	case secPrivateImage:
		b = append(b, "/images/private/team-"...)
		b = id(b)
		return append(b, ".jpg"...), kindImage
	}
	return appendPath(b, rng, sec, false)
}
