package bots

import (
	"sort"
	"strings"
)

// pattern is one spelling of a table entry, as the matcher sees it.
type pattern struct {
	lower  string // lowercased spelling, without the prefix '*'
	entry  int    // index in table
	prefix bool   // no boundary needed after it
	lead   bool   // applies only at the start of the header (Crawler.Leading)
	script bool   // the entry is a library or tool (loses to a crawler)
}

var (
	patterns []pattern
	// byFirst2 maps the first two lowercased bytes of a spelling to the
	// indices of the patterns that start with them.
	byFirst2 map[uint16][]int32
	// byName maps every lowercased spelling to its table entry.
	byName map[string]int
)

func init() {
	byFirst2 = make(map[uint16][]int32)
	byName = make(map[string]int)
	add := func(spelling string, entry int) {
		p := pattern{entry: entry, script: table[entry].Purpose == PurposeScript, lead: table[entry].Leading}
		if strings.HasSuffix(spelling, "*") {
			p.prefix = true
			spelling = strings.TrimSuffix(spelling, "*")
		}
		p.lower = strings.ToLower(spelling)
		if len(p.lower) < 2 {
			panic("bots: table spelling shorter than 2 bytes: " + spelling)
		}
		if prev, dup := byName[p.lower]; dup && !p.prefix && prev != entry {
			panic("bots: table spelling listed twice: " + spelling)
		}
		if !p.prefix {
			byName[p.lower] = entry
		}
		patterns = append(patterns, p)
		k := key2(p.lower[0], p.lower[1])
		byFirst2[k] = append(byFirst2[k], int32(len(patterns)-1))
	}
	for i, e := range table {
		add(e.Name, i)
		for _, a := range e.Also {
			add(a, i)
		}
	}
	for _, list := range byFirst2 {
		sort.Slice(list, func(a, b int) bool { return len(patterns[list[a]].lower) > len(patterns[list[b]].lower) })
	}
}

func key2(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isBoundary reports whether c may stand before or after a product token.
func isBoundary(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', '/', ',', '+', '[', ']', '"', '\'':
		return true
	}
	return false
}

// hasPrefixFold reports whether s starts with lower, ignoring ASCII case;
// lower must be lowercase.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		if lowerByte(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

// matchTable returns the index in table of the entry whose spelling applies
// to ua and ranks first (crawler before library, then longest, then
// leftmost), or -1.
func matchTable(ua string) int {
	best := -1
	for i := 0; i+1 < len(ua); i++ {
		if i > 0 && !isBoundary(ua[i-1]) || isBoundary(ua[i]) {
			continue
		}
		list := byFirst2[key2(lowerByte(ua[i]), lowerByte(ua[i+1]))]
		if len(list) > 0 && afterLike(ua, i) {
			continue // "like FeedFetcher-Google": Feedly says whom it imitates
		}
		for _, pi := range list {
			p := &patterns[pi]
			if p.lead && i > 0 || !hasPrefixFold(ua[i:], p.lower) {
				continue
			}
			end := i + len(p.lower)
			if !p.prefix && end < len(ua) && !isBoundary(ua[end]) {
				continue
			}
			if best < 0 || better(p, &patterns[best]) {
				best = int(pi)
			}
			if !p.script {
				break // the rest of the list is shorter, and no library beats a crawler
			}
		}
	}
	if best < 0 {
		return -1
	}
	return patterns[best].entry
}

// afterLike reports whether the word at ua[i] follows the word "like"
// ("FreshRSS/1.11.2 (...) like Googlebot"): a client names whom it imitates
// there, not itself.
func afterLike(ua string, i int) bool {
	j := i
	for j > 0 && (ua[j-1] == ' ' || ua[j-1] == '+') {
		j--
	}
	return j < i && j >= 4 && hasPrefixFold(ua[j-4:j], "like") && (j == 4 || isBoundary(ua[j-5]))
}

func better(p, q *pattern) bool {
	if p.script != q.script {
		return !p.script
	}
	return len(p.lower) > len(q.lower)
}

// botWords mark a product name as a crawler's. "bot" is handled apart: it
// must end a word ("Foobot", "Foo-Bot/1.0", "bots") so that "Botim" is not
// one.
var botWords = [...]string{
	"crawl", "spider", "spyder", "scraper", "fetch", "archiver", "indexer", "slurp", "headless",
}

// weakWords mark a crawler too, except in a product appended to a complete
// browser header: a corporate proxy or security gateway adds its own name
// ("... Safari/537.36 ZscalerAgent/4.2") to a person's browser.
var weakWords = [...]string{
	"scan", "check", "validator", "preview", "monitor", "httpclient", "http-client", "http_client",
	"http client", "subscriber", "agent", "synthetic", "uptime", "proxy", "webhook",
}

// hasBotWord reports whether the lowercase s contains a crawler word.
func hasBotWord(s string) bool {
	return hasStrongBotWord(s) || hasWeakBotWord(s)
}

// hasWeakBotWord reports whether the lowercase s contains one of weakWords.
// "agent" in "user-agent" or "user agent" is the header's name, not a word
// of the product.
func hasWeakBotWord(s string) bool {
	for _, w := range weakWords {
		if w != "agent" {
			if strings.Contains(s, w) {
				return true
			}
			continue
		}
		for off := 0; ; {
			i := strings.Index(s[off:], "agent")
			if i < 0 {
				break
			}
			i += off
			if !(i >= 4 && s[i-4:i] == "user" || i >= 5 && s[i-5:i-1] == "user") {
				return true
			}
			off = i + 5
		}
	}
	return false
}

// hasStrongBotWord reports whether the lowercase s contains a crawler word
// that is not one of weakWords.
func hasStrongBotWord(s string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], "bot")
		if i < 0 {
			break
		}
		j := off + i + 3
		if j == len(s) || !isLetter(s[j]) || s[j] == 's' && (j+1 == len(s) || !isLetter(s[j+1])) {
			return true
		}
		off = j
	}
	for _, w := range botWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// browserProducts are the product names a browser header is made of.
var browserProducts = map[string]bool{
	"mozilla": true, "applewebkit": true, "chrome": true, "safari": true, "version": true,
	"mobile": true, "gecko": true, "firefox": true, "edg": true, "edge": true, "edga": true,
	"edgios": true, "opr": true, "opera": true, "presto": true, "trident": true, "crios": true,
	"fxios": true, "samsungbrowser": true, "yabrowser": true, "yowser": true, "vivaldi": true,
	"ucbrowser": true, "miuibrowser": true, "huaweibrowser": true, "heytapbrowser": true,
	"oculusbrowser": true, "silk": true, "gsa": true, "whale": true, "ddg": true,
	"duckduckgo": true, "focus": true, "brave": true, "electron": true, "crmo": true,
	"qqbrowser": true, "mqqbrowser": true, "micromessenger": true, "quark": true,
	"netcast": true, "smarttv": true, "kaios": true, "vr": true, "tv": true, "wv": true,
	"like": true, "khtml": true, "gecko)": true, "u": true, "build": true, "nintendobrowser": true,
	"playstation": true, "librewolf": true, "waterfox": true, "palemoon": true, "seamonkey": true,
	"thunderbird": true, "epiphany": true, "konqueror": true, "midori": true, "falkon": true,
	"qtwebengine": true, "maxthon": true, "avast": true, "avastsecurebrowser": true,
	"ccleaner": true, "ecosia": true, "coc_coc_browser": true, "alohabrowser": true,
}

// analysis is what the generic signals find in a header.
type analysis struct {
	name         string // the crawler's name, when a signal fired
	why          string // which signal named it (for the corpus tests' breakdown)
	firstProduct string // the first product that is not a browser product
	plainBrowser bool   // every product a browser product, no signal in comments
}

// maxRunWords is how many plain words before a crawler word make up a
// multi-word name ("FAST Enterprise Crawler", "Acoon Robot").
const maxRunWords = 3

// analyse parses ua as products and comments (RFC 9110 §10.1.5) and looks
// for the generic signals of a crawler. It is linear in len(ua).
func analyse(ua string) analysis {
	var a analysis
	a.plainBrowser = true
	var (
		hasURL   bool
		urlName  string // name given by a comment that holds a URL
		urlHost  string // host of the first URL, the name of last resort
		run      [maxRunWords]int
		runWords int    // plain words (no '/', not a version) just before the current token
		prev     string // the previous product's lowercased name, outside comments
		// browserDone: the header is a complete browser header so far
		// ("Mozilla/5.0 (...) ... Safari/537.36"); products after it are
		// crawlers only by a strong crawler word.
		browserDone bool
		mozilla     = strings.HasPrefix(ua, "Mozilla/")
	)
	for i := 0; i < len(ua); {
		c := ua[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '(' {
			depth, j := 0, i
			for ; j < len(ua); j++ {
				if ua[j] == '(' {
					depth++
				} else if ua[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			end := min(j, len(ua))
			cm := analyseComment(ua[i+1 : end])
			if cm.signal {
				a.plainBrowser = false
			}
			if a.name == "" && cm.name != "" {
				a.name, a.why = cm.name, cm.why
			}
			if cm.hasURL {
				hasURL = true
				if urlName == "" {
					urlName = cm.urlName
				}
				if urlHost == "" {
					urlHost = cm.urlHost
				}
			}
			runWords = 0
			i = j + 1
			continue
		}
		j := i
		for j < len(ua) && ua[j] != ' ' && ua[j] != '\t' && ua[j] != '(' {
			j++
		}
		start, tok := i, ua[i:j]
		i = j
		if isURLish(tok) {
			hasURL = true
			a.plainBrowser = false
			if urlHost == "" {
				urlHost = hostOf(tok)
			}
			runWords = 0
			continue
		}
		name := productName(tok)
		lower := strings.ToLower(name)
		afterLike := prev == "like"
		prev = lower
		if name == "" || isVersionish(name) || lower == "compatible" || isLangTag(tok) || afterLike {
			// After "like", a client names whom it imitates
			// ("FreshRSS/1.11.2 (...) like Googlebot").
			runWords = 0
			continue
		}
		if a.name == "" && isDomain(name) {
			a.name, a.why = name, "domain product"
		}
		if !browserProducts[lower] {
			a.plainBrowser = false
			if a.firstProduct == "" {
				a.firstProduct = name
			}
		}
		crawlerWord := hasStrongBotWord(lower) || !browserDone && (hasWeakBotWord(lower) ||
			lower == "client" && runWords > 0 && strings.EqualFold(strings.TrimSpace(ua[run[(runWords-1)%maxRunWords]:start]), "http"))
		if mozilla && (lower == "safari" || lower == "firefox" || lower == "chrome") && strings.IndexByte(tok, '/') > 0 {
			browserDone = true
		}
		if a.name == "" && crawlerWord {
			from := start
			if runWords > maxRunWords {
				from = run[runWords%maxRunWords] // the oldest in the ring
			} else if runWords > 0 {
				from = run[0]
			}
			a.name = strings.TrimLeft(ua[from:start], "+\"'[") + name
			a.why = "crawler word in product"
		}
		if strings.IndexByte(tok, '/') >= 0 || browserProducts[lower] {
			runWords = 0
			continue
		}
		run[runWords%maxRunWords] = start
		runWords++
	}
	if a.name == "" && hasURL {
		a.why = "URL or e-mail"
		switch {
		case a.firstProduct != "":
			a.name = a.firstProduct
		case urlName != "":
			a.name = urlName
		default:
			a.name = urlHost
		}
	}
	if a.name != "" {
		a.plainBrowser = false
	}
	return a
}

// commentInfo is what analyseComment finds in one comment.
type commentInfo struct {
	name    string // an item with a crawler word
	why     string // why name was chosen
	urlName string // the item before the first URL or e-mail address
	urlHost string // the host of the first URL or e-mail address
	hasURL  bool
	signal  bool // something a browser's comment would not hold
}

// analyseComment looks at one comment's ';'-separated items.
func analyseComment(cm string) commentInfo {
	var info commentInfo
	lower := strings.ToLower(cm)
	compatible := strings.Contains(lower, "compatible")
	// Device comments name phone models, some of which contain "bot".
	platform := !compatible && containsAny(lower, "android", "windows phone", "windows ce", "tizen", "kaios",
		"symbian", "series60", "blackberry", "nokia", "smart-tv", "smarttv", "web0s", "playstation", "nintendo")
	// "(compatible; Foo/1.0)" without a browser it pretends to be is a bot's
	// comment whatever Foo is called; Internet Explorer writes MSIE and
	// Windows in it.
	botCompatible := compatible && !containsAny(lower, "msie", "windows", "win16", "win32", "win9", "trident",
		"mac os", "mac_", "macintosh", "linux", "x11", "bsd", "sunos", "risc os", "amigaos", "beos", "qnx",
		"os/2", "browser", "konqueror", "aol", "voyager", "netpositive",
		// feature phones and handhelds: their browsers write
		// "(compatible; Teleca Q7; Brew 3.1.5; U; en)"
		"android", "brew", "bmp ", "symbian", "midp", "j2me", "rim9", "palm")
	prev := ""
	for len(cm) > 0 {
		item := cm
		if k := strings.IndexByte(cm, ';'); k >= 0 {
			item, cm = cm[:k], cm[k+1:]
		} else {
			cm = ""
		}
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		n := itemName(item)
		if urlIn(item) || isDomain(item) {
			info.hasURL, info.signal = true, true
			if info.urlHost == "" {
				info.urlHost = hostIn(item)
				if info.urlHost == "" {
					info.urlHost = strings.ToLower(item)
				}
			}
			if info.urlName == "" {
				if n != "" && !isPlatformItem(n) {
					info.urlName = n
				} else {
					info.urlName = prev
				}
			}
			continue
		}
		if n == "" || isPlatformItem(n) {
			continue
		}
		if word := !platform && hasBotWord(strings.ToLower(n)); word || botCompatible {
			info.signal = true
			if info.name == "" {
				info.name, info.why = n, "crawler word in comment"
				if !word {
					info.why = "compatible comment"
				}
			}
		}
		prev = n
	}
	if platform && !info.hasURL {
		info.signal = false
	}
	return info
}

// isPlatformItem reports whether a comment item describes the platform or
// the browser it imitates rather than naming a product.
func isPlatformItem(n string) bool {
	l := strings.ToLower(n)
	if len(l) <= 2 || len(l) == 5 && l[2] == '-' || platformItems[l] {
		return true
	}
	for _, p := range [...]string{"mozilla", "msie", "windows", "win9", "win 9", "linux", "android", "iphone",
		"ipad", "macintosh", "intel mac", "cpu ", "rv:", "khtml", "like gecko", "trident", "ubuntu", ".net",
		"media center", "nt ", "sv1", "gtb", "slcc"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

var platformItems = map[string]bool{
	"compatible": true, "mobile": true, "tablet": true, "touch": true, "arm": true, "arm64": true,
	"win64": true, "win32": true, "wow64": true, "x64": true, "x86_64": true, "i686": true, "cros": true,
	"x11": true, "wv": true,
}

// isDomain reports whether w is written as a bare domain name
// ("twingly.com"): labels of letters, digits and '-' separated by dots, the
// first starting with a letter, the last a real top-level domain (tlds).
// A dotted product name with no real top-level domain is not one ("UP.Link",
// "Dr.Web", LG's "LM-Q710.FG"), nor is an Android package id, a domain
// written backwards ("com.abc.mobile", "org.xyz.mobile").
func isDomain(w string) bool {
	dot := strings.LastIndexByte(w, '.')
	if dot <= 0 || len(w)-dot-1 < 2 || len(w)-dot-1 > 10 || !isLetter(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	var buf [10]byte
	if !tlds[string(lowerASCII(buf[:0], w[dot+1:]))] {
		return false
	}
	first := w[:strings.IndexByte(w, '.')]
	return !(dot > len(first) && reversedFirst[strings.ToLower(first)])
}

// reversedFirst are the first labels of Android and Java package ids
// ("com.google.android.apps.plus").
var reversedFirst = map[string]bool{"com": true, "org": true, "net": true, "edu": true, "gov": true}

// tlds are the top-level domains a crawler's domain is written with: the
// country codes, the original generic ones and the new generic ones in
// common use. Brand and rare ones are left out on purpose ("mobile",
// "link", "web" end product names far more often than domains in headers).
var tlds = func() map[string]bool {
	m := map[string]bool{}
	const cc = "ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz " +
		"ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr " +
		"ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp " +
		"ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt " +
		"mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru " +
		"rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz " +
		"ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw"
	const generic = "com net org edu gov mil int arpa info biz name pro mobi aero asia cat coop jobs museum tel travel " +
		"app dev xyz top online site shop store tech website space live club vip icu cloud blog page digital agency " +
		"email news media network solutions systems tools social software studio services group works world today " +
		"one global company codes technology team zone center host press rocks fun art run design agency marketing " +
		"guide review reviews wiki ltd llc inc gmbh academy institute science ninja expert consulting"
	for _, t := range strings.Fields(cc + " " + generic) {
		m[t] = true
	}
	return m
}()

// isLangTag reports whether tok is a language tag in brackets ("[en]").
func isLangTag(tok string) bool {
	return len(tok) >= 3 && len(tok) <= 8 && tok[0] == '[' && strings.IndexByte(tok, ']') > 0
}

// hostOf returns the host of a URL or e-mail address word, without "www.".
func hostOf(w string) string {
	w = strings.TrimLeft(w, "+(<\"'")
	if k := strings.Index(w, "://"); k >= 0 {
		w = w[k+3:]
	} else if k := strings.IndexByte(w, '@'); k >= 0 {
		w = w[k+1:]
	}
	if k := strings.IndexAny(w, "/:?#)>;,\"' "); k >= 0 {
		w = w[:k]
	}
	if len(w) > 4 && strings.EqualFold(w[:4], "www.") {
		w = w[4:]
	}
	return strings.ToLower(w)
}

// hostIn returns the host of the first URL or e-mail address in item.
func hostIn(item string) string {
	for _, w := range strings.Fields(item) {
		if isURLish(w) {
			return hostOf(w)
		}
	}
	return ""
}

// maxItemWords is the most words a product name in a comment item has;
// longer items are prose ("mms dash mm aud vid crawler dash support").
const maxItemWords = 4

// itemName returns the product name a comment item starts with: the words
// before the first URL-like or version-like word, cut at the first '/'.
func itemName(item string) string {
	end, words := 0, 0
	for off := 0; off < len(item); {
		for off < len(item) && item[off] == ' ' {
			off++
		}
		w := off
		for w < len(item) && item[w] != ' ' {
			w++
		}
		word := item[off:w]
		if word == "" || isURLish(word) || isVersionish(word) || word[0] == '+' || word[0] == '-' {
			break
		}
		if k := strings.IndexByte(word, '/'); k >= 0 {
			if k > 0 {
				end = off + k
			}
			break
		}
		end = w
		off = w
		if words++; words > maxItemWords {
			return ""
		}
	}
	return strings.Trim(item[:end], " ,:\"'")
}

// productName returns the name part of a product token "name/version",
// trimmed of punctuation.
func productName(tok string) string {
	if k := strings.IndexByte(tok, '/'); k >= 0 {
		tok = tok[:k]
	}
	return strings.Trim(tok, ",;:\"'[]+")
}

func isVersionish(w string) bool {
	if w == "" {
		return false
	}
	if w[0] >= '0' && w[0] <= '9' {
		return true
	}
	return len(w) > 1 && (w[0] == 'v' || w[0] == 'V') && w[1] >= '0' && w[1] <= '9'
}

func isURLish(w string) bool {
	l := strings.ToLower(strings.TrimLeft(w, "+("))
	return strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:") || strings.HasPrefix(l, "www.") ||
		strings.Contains(l, "://") || strings.IndexByte(l, '@') >= 0 && isEmail(l)
}

// isEmail reports whether w, stripped of the punctuation around it, is an
// e-mail address local@domain.tld with a real domain (isDomain): "@" in
// "(Ecosia android@150.0.0.0)" or "ICS@ROM_04.06.2012" is not one.
func isEmail(w string) bool {
	w = strings.Trim(w, "+(<[\"',;:)>]")
	at := strings.IndexByte(w, '@')
	local := at
	for local > 0 && (isLetter(w[local-1]) || w[local-1] >= '0' && w[local-1] <= '9' || strings.IndexByte(".-_+%", w[local-1]) >= 0) {
		local--
	}
	if at <= 0 || local == at {
		return false
	}
	// The domain: letters, digits and '-' in dotted labels, the last of
	// letters only ("unspecified.mail" is written as a domain, "150.0.0.0"
	// and "ROM_04.06.2012" are not).
	d := w[at+1:]
	dot := strings.LastIndexByte(d, '.')
	if dot <= 0 || len(d)-dot-1 < 2 || !isLetter(d[0]) {
		return false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if !(isLetter(c) || c == '.' || i < dot && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// urlIn reports whether a comment item contains a URL or e-mail address.
func urlIn(item string) bool {
	l := strings.ToLower(item)
	if strings.Contains(l, "http:") || strings.Contains(l, "https:") || strings.Contains(l, "www.") {
		return true
	}
	if strings.IndexByte(l, '@') < 0 {
		return false
	}
	for _, w := range strings.Fields(l) {
		if isEmail(w) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
