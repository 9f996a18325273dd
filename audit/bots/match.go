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
		p := pattern{entry: entry, script: table[entry].Purpose == PurposeScript}
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
		for _, pi := range list {
			p := &patterns[pi]
			if !hasPrefixFold(ua[i:], p.lower) {
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
	"crawl", "spider", "spyder", "scraper", "fetch", "archiver", "indexer", "slurp", "scan",
	"check", "validator", "preview", "monitor", "headless", "httpclient", "http-client", "http_client",
	"http client", "subscriber", "agent", "synthetic", "uptime", "proxy", "webhook",
}

// hasBotWord reports whether the lowercase s contains a crawler word.
func hasBotWord(s string) bool {
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
		runWords int // plain words (no '/', not a version) just before the current token
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
				a.name = cm.name
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
		if name == "" || isVersionish(name) || lower == "compatible" || isLangTag(tok) {
			runWords = 0
			continue
		}
		if a.name == "" && isDomain(name) {
			a.name = name
		}
		if !browserProducts[lower] {
			a.plainBrowser = false
			if a.firstProduct == "" {
				a.firstProduct = name
			}
		}
		if a.name == "" && hasBotWord(lower) {
			from := start
			if runWords > maxRunWords {
				from = run[runWords%maxRunWords] // the oldest in the ring
			} else if runWords > 0 {
				from = run[0]
			}
			a.name = strings.TrimLeft(ua[from:start], "+\"'[") + name
		}
		if strings.IndexByte(tok, '/') >= 0 || browserProducts[lower] {
			runWords = 0
			continue
		}
		run[runWords%maxRunWords] = start
		runWords++
	}
	if a.name == "" && hasURL {
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
		"os/2", "browser", "konqueror", "aol", "voyager", "netpositive")
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
		if !platform && hasBotWord(strings.ToLower(n)) || botCompatible {
			info.signal = true
			if info.name == "" {
				info.name = n
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

// isDomain reports whether w looks like a bare domain name ("twingly.com"):
// labels of letters, digits and '-' separated by dots, the last one 2 to 6
// letters.
func isDomain(w string) bool {
	dot := strings.LastIndexByte(w, '.')
	if dot <= 0 || len(w)-dot-1 < 2 || len(w)-dot-1 > 6 || !isLetter(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
		if i > dot && !isLetter(c) {
			return false
		}
	}
	return true
}

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
		strings.Contains(l, "://") || strings.Contains(l, "@")
}

// urlIn reports whether a comment item contains a URL or e-mail address.
func urlIn(item string) bool {
	l := strings.ToLower(item)
	return strings.Contains(l, "http:") || strings.Contains(l, "https:") || strings.Contains(l, "www.") ||
		strings.Contains(l, "@") && strings.Contains(l, ".")
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
