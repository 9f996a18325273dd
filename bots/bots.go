package bots

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ua-parser/uap-go/uaparser"
)

// Bot is what Identify says about one User-Agent.
type Bot struct {
	// Name is the crawler's product name: the table's canonical spelling
	// for a known crawler, otherwise the name as written in the header.
	// Empty when IsBot is false.
	Name string
	// Operator runs the crawler; empty when unknown or for libraries.
	Operator string
	// Purpose is one of Purposes; empty when IsBot is false.
	Purpose string
	// IsBot is false for browsers and for other clients with no sign of
	// automation.
	IsBot bool
	// Known is true when the name comes from the table (Crawlers).
	Known bool
}

// NoUserAgent is the Name of the bot behind an empty or "-" User-Agent.
const NoUserAgent = "(no user agent)"

// maxUAPBytes is how much of a header uap-go sees.
const maxUAPBytes = 1024

// maxNameBytes bounds the name of a bot that is not in the table: a
// hostile header cannot make a 100 KB bot name.
const maxNameBytes = 128

// Identifier identifies bots and remembers its answers. It is safe for
// concurrent use. The zero value is not usable; call NewIdentifier.
type Identifier struct {
	uapOnce sync.Once
	uap     *uaparser.Parser

	cache      sync.Map // string -> Bot
	cacheCount atomic.Int64
	cacheBytes atomic.Int64 // bytes of the cached headers and names
	uapCalls   atomic.Int64 // headers that went to uap-go
	uapSkipped atomic.Int64 // headers that would have gone to uap-go past MaxUAPCalls
}

// Cache bounds: beyond maxCacheEntries distinct headers or maxCacheBytes
// of them, or for a header longer than maxCacheKey bytes, answers are
// computed but not remembered, so hostile input cannot grow memory without
// bound (8 MiB, where 65,536 headers of 2 KiB would be 128 MiB).
const (
	maxCacheEntries = 1 << 16
	maxCacheKey     = 2048
	maxCacheBytes   = 8 << 20
)

// NewIdentifier returns an Identifier. uap-go's regular expressions are
// compiled on first need (about 0.1 s), not here.
func NewIdentifier() *Identifier { return &Identifier{} }

var defaultIdentifier = NewIdentifier()

// Identify says who is behind the User-Agent ua, using a shared Identifier.
// It never retains ua: the strings in the result do not alias it, so ua may
// point into a buffer that is released afterwards.
func Identify(ua string) Bot { return defaultIdentifier.Identify(ua) }

// Identify says who is behind the User-Agent ua. See the package doc for
// the rules. It never retains ua.
func (id *Identifier) Identify(ua string) Bot {
	if v, ok := id.cache.Load(ua); ok {
		return v.(Bot)
	}
	b := id.identify(ua)
	cost := int64(len(ua) + len(b.Name) + 64) // the key, the name, the entry
	if len(ua) <= maxCacheKey && id.cacheCount.Load() < maxCacheEntries && id.cacheBytes.Load()+cost <= maxCacheBytes {
		if _, loaded := id.cache.LoadOrStore(strings.Clone(ua), b); !loaded {
			id.cacheCount.Add(1)
			id.cacheBytes.Add(cost)
		}
	}
	return b
}

func (id *Identifier) identify(ua string) Bot {
	ua = strings.TrimSpace(ua)
	// A header's name copied into its value ("User-Agent: igmHttp/0.1.501
	// (Android OS; ...)") is not part of the client's products.
	for _, p := range [...]string{"user-agent:", "user agent:", "user-agent ", "user agent "} {
		if len(ua) > len(p) && hasPrefixFold(ua, p) {
			ua = strings.TrimSpace(ua[len(p):])
			break
		}
	}
	if ua == "" || ua == "-" {
		return Bot{Name: NoUserAgent, Purpose: PurposeScript, IsBot: true}
	}
	if i := matchTable(ua); i >= 0 {
		return known(i)
	}
	a := analyse(ua)
	if a.name != "" {
		return unknown(a.name)
	}
	if a.plainBrowser {
		return Bot{}
	}
	head := ua
	if len(head) > maxUAPBytes {
		head = head[:maxUAPBytes]
	}
	family, device := id.uapParse(head)
	if device == "Spider" && !isBrowserFamily(family) || hasBotWord(strings.ToLower(family)) && !isBrowserFamily(family) {
		if n := inHeader(head, family); n != "" {
			return unknown(n)
		}
		if a.firstProduct != "" {
			return unknown(a.firstProduct)
		}
		if family != "" && family != "Other" {
			return unknown(family)
		}
		return unknown(firstWord(ua))
	}
	return Bot{}
}

func known(i int) Bot {
	e := &table[i]
	return Bot{Name: e.Name, Operator: e.Operator, Purpose: e.Purpose, IsBot: true, Known: true}
}

// unknown returns the bot for a name that is not in the table, inheriting
// operator and purpose from a table token it extends with '-'.
func unknown(name string) Bot {
	if len(name) > 2*maxNameBytes {
		name = name[:2*maxNameBytes] // cleanName is quadratic in the worst case
	}
	if n := cleanName(name); n != "" {
		name = n
	}
	if len(name) > maxNameBytes {
		cut := maxNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		if cut == 0 { // invalid UTF-8: no rune starts before the bound
			cut = maxNameBytes
		}
		name = name[:cut]
	}
	name = strings.Clone(name)
	b := Bot{Name: name, Purpose: PurposeOther, IsBot: true}
	lower := strings.ToLower(name)
	for i := len(lower) - 1; i > 0; i-- {
		if lower[i] != '-' {
			continue
		}
		if e, ok := byName[lower[:i]]; ok {
			b.Operator, b.Purpose = table[e].Operator, table[e].Purpose
			break
		}
	}
	return b
}

// cleanName returns the product name in a name found by the generic
// signals, without parse debris: leading punctuation ("${java"), a
// lowercase label before a colon and a capital ("aggregator:Spinn3r"), whatever follows
// a bracket, brace, quote or '=' ("Spinn3r (Spinn3r"), and a version joined
// with '-' or '_' ("grub-client-1.5.3", "binlar_2.6.3"). It returns "" when
// nothing is left.
func cleanName(name string) string {
	i := 0
	for i < len(name) && !isLetter(name[i]) && !(name[i] >= '0' && name[i] <= '9') && name[i] < utf8.RuneSelf {
		i++
	}
	name = name[i:]
	if k := strings.IndexAny(name, "(){}<>[]\"'=;,$"); k >= 0 {
		name = name[:k]
	}
	if k := strings.IndexByte(name, ':'); k > 0 && k+1 < len(name) && 'A' <= name[k+1] && name[k+1] <= 'Z' && isLowerWord(name[:k]) {
		name = name[k+1:]
	}
	name = strings.TrimRight(name, " :.-_")
	// A version joined with '-' or '_': the last separator followed by a
	// digit, or by 'v' and a digit, with no letters after the digits but
	// release suffixes ("-1.0-RC1").
	for k := 1; k < len(name); k++ {
		if name[k-1] != '-' && name[k-1] != '_' {
			continue
		}
		rest := name[k:]
		if rest[0] == 'v' || rest[0] == 'V' {
			rest = rest[1:]
		}
		if rest != "" && rest[0] >= '0' && rest[0] <= '9' && isVersionTail(rest) {
			name = strings.TrimRight(name[:k-1], " :.-_")
			break
		}
	}
	return name
}

// isVersionTail reports whether s is a version: digits and dots, then at
// most short release words ("1.5.3", "2.6.3", "1.0-RC1", "1.0_").
func isVersionTail(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || isLetter(c) && i > 0 && (s[i-1] == '-' || s[i-1] == '_' || isLetter(s[i-1]))) {
			return false
		}
	}
	return true
}

func isLowerWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// uapParse returns uap-go's user-agent and device families of ua, which the
// caller has cut to maxUAPBytes.
// MaxUAPCalls bounds the headers one Identifier hands to uap-go, its slowest
// step (milliseconds a header; docs/performance.md): a log of a million random User-Agents must
// not take an hour. Past the bound, a header the table and the generic signals
// say nothing about is not a bot. Real logs stay far below it (a busy month
// has a few thousand distinct headers, a tenth of them reaching uap-go).
const MaxUAPCalls = 10000

// UAPSkipped returns how many headers were decided without uap-go because
// MaxUAPCalls was reached.
func (id *Identifier) UAPSkipped() int64 { return id.uapSkipped.Load() }

func (id *Identifier) uapParse(ua string) (family, device string) {
	if id.uapCalls.Load() >= MaxUAPCalls {
		id.uapSkipped.Add(1)
		return "", ""
	}
	id.uapOnce.Do(func() {
		// The Identifier caches answers; uap's own cache would only hold
		// copies (1 is its smallest size).
		p, err := uaparser.New(uaparser.WithCacheSize(1))
		if err == nil {
			id.uap = p
		}
	})
	if id.uap == nil {
		return "", ""
	}
	id.uapCalls.Add(1)
	return id.uap.ParseUserAgent(ua).Family, id.uap.ParseDevice(ua).Family
}

// inHeader returns family as written in ua (its casing there), or "" when
// ua does not contain it.
func inHeader(ua, family string) string {
	if family == "" || family == "Other" || family == "Spider" {
		return ""
	}
	if i := indexFold(ua, family); i >= 0 {
		return ua[i : i+len(family)]
	}
	return ""
}

// indexFold is strings.Index ignoring ASCII case. Only ASCII letters are
// folded, so a match is exactly len(sub) bytes long: strings.ToLower would
// change the length of some runes (the Kelvin sign U+212A becomes 'k'), and
// the caller slices s by len(sub).
func indexFold(s, sub string) int {
	var buf [64]byte
	sub = string(lowerASCII(buf[:0], sub))
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}

// lowerASCII appends s to dst with ASCII letters lowercased, every other
// byte as it is.
func lowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, lowerByte(s[i]))
	}
	return dst
}

func firstWord(ua string) string {
	if i := strings.IndexAny(ua, " (/;"); i > 0 {
		return ua[:i]
	}
	if len(ua) > 64 {
		return ua[:64]
	}
	return ua
}

var browserFamilies = map[string]bool{
	"Chrome": true, "Chrome Mobile": true, "Chrome Mobile iOS": true, "Chrome Mobile WebView": true,
	"Chromium": true, "HeadlessChrome": false, "Firefox": true, "Firefox Mobile": true, "Firefox iOS": true,
	"Firefox Beta": true, "Firefox Alpha": true, "Safari": true, "Mobile Safari": true,
	"Mobile Safari UI/WKWebView": true, "Edge": true, "Edge Mobile": true, "Opera": true,
	"Opera Mobile": true, "Opera Mini": true, "Opera Coast": true, "Opera Touch": true,
	"Samsung Internet": true, "Yandex Browser": true, "UC Browser": true, "IE": true, "IE Mobile": true,
	"Facebook": true, "Instagram": true, "Pinterest": true, "LINE": true, "WeChat": true,
	"Snapchat": true, "Twitter": true, "Vivaldi": true, "Brave": true, "DuckDuckGo Mobile": true,
	"Silk": true, "Amazon Silk": true, "Whale": true, "QQ Browser": true, "QQ Browser Mobile": true,
	"MiuiBrowser": true, "HuaweiBrowser": true, "Google": true, "Electron": true, "Puffin": true,
	"Pale Moon": true, "SeaMonkey": true, "Iceweasel": true, "Konqueror": true, "Epiphany": true,
	"Midori": true, "Maxthon": true, "Android": true, "Android Browser": true, "Baidu Explorer": true,
	"Sogou Explorer": true, "Oculus Browser": true, "Mobile Safari/WKWebView": true, "Quark": true,
	"Facebook Messenger": true, "Kakaotalk": true, "NAVER": true, "Yandex Search App": true,
	"Snapchat In-App": true, "TikTok": true,
}

func isBrowserFamily(f string) bool {
	if browserFamilies[f] {
		return true
	}
	for _, w := range [...]string{"Browser", "Safari", "Chrome", "Firefox", "Opera", "Edge"} {
		if strings.Contains(f, w) && !strings.Contains(f, "Headless") {
			return true
		}
	}
	return false
}

// Crawlers returns a copy of the table of known crawlers, libraries and
// tools, in the order they are written.
func Crawlers() []Crawler {
	out := make([]Crawler, len(table))
	copy(out, table)
	for i := range out {
		out[i].Also = append([]string(nil), out[i].Also...)
	}
	return out
}

// Lookup returns the table entry named token (case-insensitive, the name or
// one of its other spellings), as a report needs to show a bot's operator
// and purpose.
func Lookup(token string) (Crawler, bool) {
	i, ok := byName[strings.ToLower(strings.TrimSuffix(token, "*"))]
	if !ok {
		return Crawler{}, false
	}
	e := table[i]
	e.Also = append([]string(nil), e.Also...)
	return e, true
}
