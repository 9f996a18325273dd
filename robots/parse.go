package robots

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxFileBytes is the part of a robots.txt file that is parsed: 500 KiB, the
// minimum RFC 9309 §2.5 asks crawlers to parse. Bytes beyond it are not
// parsed (see the package documentation, "Limits").
const MaxFileBytes = 500 << 10

// MaxLineBytes is the line length over which a line is reported as too long:
// 16,664 bytes (2083 × 8), the buffer of Google's parser. Lines are never cut
// except under the Google profile, which keeps their first MaxLineBytes-1
// bytes as Google's parser does.
const MaxLineBytes = 2083 * 8

// File is a parsed robots.txt file. Parse builds it; it is not modified
// afterwards and is safe to read concurrently.
type File struct {
	// Groups are the groups of the file as RFC 9309 forms them:
	// consecutive User-agent lines share a group, a group runs until the next
	// User-agent line that follows a rule (Allow, Disallow or a group
	// extension such as Crawl-delay; see buildGroups). Compile forms the
	// groups of other profiles from the same lines.
	Groups []*Group
	// Sitemaps and Hosts are the file-level Sitemap and Host lines, in file
	// order, wherever they appear.
	Sitemaps []Text
	Hosts    []Text
	// Preferences are the Content-Usage and Content-Signal lines before
	// the first User-agent line, in file order: they apply to every
	// crawler (a line inside a group is in its Group.Preferences).
	Preferences []Statement
	// Diagnostics are every finding about the file, sorted by line.
	Diagnostics []Diagnostic
	// Lines is the number of lines parsed; Size the length of the input in
	// bytes; Truncated is set when Size is over MaxFileBytes and the rest was
	// not parsed.
	Lines     int
	Size      int
	Truncated bool

	lines []line // directive and blank lines, for Compile
}

// NotRobotsTxt returns the diagnostic that says the file is plainly not a
// robots.txt (an HTML page, UTF-16 text, compressed or binary data), and
// false when it is one, however flawed. An audit judged by such a file would
// report a clean bill of health for a file no crawler can read rules from.
func (f *File) NotRobotsTxt() (Diagnostic, bool) {
	for _, d := range f.Diagnostics {
		if d.Severity == Error && slices.Contains(notRobotsCodes, d.Code) {
			return d, true
		}
	}
	return Diagnostic{}, false
}

// HasDirective reports whether any line of the file is a directive a profile
// reads (User-agent, a rule, an extension, Sitemap). A file without one,
// empty or all comments, allows everything.
func (f *File) HasDirective() bool {
	for _, l := range f.lines {
		if !l.blank {
			return true
		}
	}
	return len(f.Sitemaps) > 0 || len(f.Hosts) > 0
}

// HasPreferences reports whether the file has any Content-Usage or
// Content-Signal line, in a group or outside any.
func (f *File) HasPreferences() bool {
	if len(f.Preferences) > 0 {
		return true
	}
	for _, g := range f.Groups {
		if len(g.Preferences) > 0 {
			return true
		}
	}
	return false
}

// HasErrors reports whether any diagnostic has Severity Error.
func (f *File) HasErrors() bool {
	for _, d := range f.Diagnostics {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// line is one line of the file that matters to grouping: a blank line, or a
// line that some profile reads as a directive. Comment-only lines and lines
// no profile reads are not kept.
type line struct {
	num   int
	blank bool
	// The standard reading (every profile except Google).
	kind         Kind
	value        string
	missingColon bool
	// Google's reading (see googleSplit and googleKind).
	gkind  Kind
	gvalue string
}

// Parse reads a robots.txt file. It never fails: any bytes are read as far as
// they can be, and what cannot be read becomes a Diagnostic. The returned
// File holds strings that share one copy of data; data may be reused after
// Parse returns. Parse takes time linear in min(len(data), MaxFileBytes).
func Parse(data []byte) *File {
	f := &File{Size: len(data)}
	p := &parser{f: f}
	if d, ok := wrongContent(data); ok {
		// Read as text, a UTF-16 or compressed file is noise that would
		// bury the one finding that matters under hundreds.
		f.Diagnostics = []Diagnostic{d}
		return f
	}
	body := data
	if len(body) > MaxFileBytes {
		f.Truncated = true
		body = body[:MaxFileBytes]
		// A line cut by the limit is dropped whole: a pattern cut short
		// would disallow more than its author wrote.
		if c := data[MaxFileBytes]; c != '\n' && c != '\r' {
			if i := strings.LastIndexAny(string(body), "\r\n"); i >= 0 {
				body = body[:i+1]
			} else {
				body = body[:0]
			}
		}
	}
	s := string(body)
	// A UTF-8 byte order mark is skipped, and so is any prefix of one
	// (google/robotstxt does the same; a cut BOM is still not content).
	for i := 0; i < 3 && len(s) > 0 && s[0] == "\xEF\xBB\xBF"[i]; i++ {
		s = s[1:]
	}
	num := 0
	for len(s) > 0 {
		end := strings.IndexAny(s, "\r\n")
		raw := s
		next := ""
		if end >= 0 {
			raw = s[:end]
			next = s[end+1:]
			if s[end] == '\r' && len(next) > 0 && next[0] == '\n' {
				next = next[1:]
			}
		}
		num++
		p.line(num, raw)
		s = next
	}
	f.Lines = num
	p.finish(len(data), len(body))
	f.Groups = buildGroups(f.lines, modeRFC, p)
	p.checkShadowed(f.Groups)
	sort.SliceStable(f.Diagnostics, func(i, j int) bool { return f.Diagnostics[i].Line < f.Diagnostics[j].Line })
	return f
}

type parser struct {
	f *File

	badUTF8Lines, badUTF8First int
	badUTF8InDirective         bool
	ctlLines, ctlFirst         int
	htmlLine                   int
	unknownAfterHTML           int
	misspelt                   map[string]Kind // memo of misspelling, keyed by key
}

// misspelling is the package's misspelling, memoised: files repeat keys.
func (p *parser) misspelling(key string) Kind {
	if k, ok := p.misspelt[key]; ok {
		return k
	}
	if p.misspelt == nil {
		p.misspelt = map[string]Kind{}
	}
	k := misspelling(key)
	if len(p.misspelt) < 4096 {
		p.misspelt[key] = k
	}
	return k
}

func (p *parser) diag(num int, sev Severity, code Code, format string, args ...any) {
	p.f.Diagnostics = append(p.f.Diagnostics, Diagnostic{Line: num, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
}

const space = " \t\v\f"

func (p *parser) line(num int, raw string) {
	if len(raw) > MaxLineBytes {
		p.diag(num, Warning, CodeLineTooLong, "line is %d bytes long, over %d: Google's parser ignores what follows byte %d", len(raw), MaxLineBytes, MaxLineBytes-1)
	}
	validUTF8 := utf8.ValidString(raw)
	if !validUTF8 {
		if p.badUTF8Lines == 0 {
			p.badUTF8First = num
		}
		p.badUTF8Lines++
	}
	if hasControl(raw) {
		if p.ctlLines == 0 {
			p.ctlFirst = num
		}
		p.ctlLines++
	}
	content := raw
	if i := strings.IndexByte(content, '#'); i >= 0 {
		content = content[:i]
	}
	content = strings.Trim(content, space)
	if content == "" {
		if strings.Trim(raw, space) == "" {
			p.f.lines = append(p.f.lines, line{num: num, blank: true})
		}
		return
	}
	if p.htmlLine == 0 && looksLikeHTML(content) {
		p.htmlLine = num
	}
	l := line{num: num}
	key, value, missing, ok := standardSplit(content)
	if ok {
		l.kind, l.value, l.missingColon = lookupKey(key), value, missing
	}
	gkey, gvalue, gok := googleSplit(raw)
	if gok {
		l.gkind, l.gvalue = googleKind(gkey), gvalue
	}
	if l.gkind == KindUnknown && l.kind != KindUnknown && !l.kind.isRule() && l.kind != KindUserAgent && l.kind != KindSitemap {
		// Google reads no extension; the Google profile still exposes them.
		l.gkind, l.gvalue = l.kind, l.value
	}
	if !validUTF8 && !utf8.ValidString(content) {
		p.badUTF8InDirective = p.badUTF8InDirective || l.kind != KindUnknown
	}
	if l.kind == KindUnknown {
		p.unknown(num, content, key, ok, l.gkind)
	} else {
		if l.missingColon {
			p.diag(num, Warning, CodeMissingColon, "missing colon after %q: read as %s", key, l.kind)
		}
		p.checkValue(num, l.kind, l.value)
	}
	if l.kind != KindUnknown || l.gkind != KindUnknown {
		p.f.lines = append(p.f.lines, l)
	}
}

// unknown reports a line with no known key.
func (p *parser) unknown(num int, content, key string, hasKey bool, gkind Kind) {
	if p.htmlLine != 0 {
		p.unknownAfterHTML++
		return
	}
	if !hasKey {
		// No colon: "user agent FooBot", "Disalow /x", or plain text.
		first, rest, _ := strings.Cut(content, " ")
		if k := p.misspelling(first); k != KindUnknown {
			p.reportMisspelt(num, first, k, gkind)
			return
		}
		if second, _, _ := strings.Cut(strings.TrimLeft(rest, space), " "); second != "" {
			if k := p.misspelling(first + " " + second); k != KindUnknown {
				p.reportMisspelt(num, first+" "+second, k, gkind)
				return
			}
		}
		p.diag(num, Warning, CodeUnknownKey, "not a directive (no \"key: value\"): %s", quote(content))
		return
	}
	if k := p.misspelling(key); k != KindUnknown {
		p.reportMisspelt(num, key, k, gkind)
		return
	}
	p.diag(num, Warning, CodeUnknownKey, "unknown key %s: line ignored", quote(key))
}

func (p *parser) reportMisspelt(num int, key string, k, gkind Kind) {
	also := ""
	if gkind == k {
		also = " (the google profile reads it as " + k.String() + ")"
	}
	p.diag(num, Error, CodeMisspelledKey, "unknown key %s, likely a misspelling of %s: line ignored%s", quote(key), k, also)
}

// checkValue validates the value of a known directive.
func (p *parser) checkValue(num int, k Kind, v string) {
	switch k {
	case KindUserAgent:
		switch tok := rfcToken(v); {
		case tok == "":
			p.diag(num, Error, CodeInvalidAgent, "User-agent %s names no product token (letters, digits, '-', '_', '.') or '*': the group applies to no crawler", quote(v))
		case tok != v:
			p.diag(num, Warning, CodeAgentNotToken, "User-agent %s is read as the product token %q", quote(v), tok)
		}
	case KindAllow, KindDisallow:
		if v != "" && v[0] != '/' && v[0] != '*' {
			p.diag(num, Warning, CodePatternNotPath, "%s pattern %s does not start with '/'", k, quote(v))
		}
	case KindCrawlDelay:
		if _, err := parseDelay(v); err != nil {
			p.diag(num, Error, CodeInvalidCrawlDelay, "invalid Crawl-delay: %v: line ignored", err)
		}
	case KindCacheDelay:
		if _, err := parseDelay(v); err != nil {
			p.diag(num, Error, CodeInvalidCacheDelay, "invalid Cache-delay: %v: line ignored", err)
		}
	case KindRequestRate:
		if _, err := parseRequestRate(v); err != nil {
			p.diag(num, Error, CodeInvalidRate, "invalid Request-rate (want n/t with unit s, m, h or d, and an optional window HHMM-HHMM): %v: line ignored", err)
		}
	case KindRobotVersion:
		if _, err := ParseVersion(v); err != nil {
			p.diag(num, Warning, CodeInvalidVersion, "invalid Robot-version (want major.minor.revision, major 1 or 2): %v: the 2.0.0 proposal (--spec spc2) reads the group as version 1.0.0", err)
		}
	case KindVisitTime:
		if _, err := parseWindow(v); err != nil {
			p.diag(num, Error, CodeInvalidVisitTime, "invalid Visit-time (want HHMM-HHMM, UTC): %v: line ignored", err)
		}
	case KindCleanParam:
		if _, err := parseCleanParam(v); err != nil {
			p.diag(num, Error, CodeEmptyCleanParam, "invalid Clean-param: %v: line ignored", err)
		}
	case KindContentUsage, KindContentSignal:
		_, issues := parseStatement(k, v, num)
		for _, is := range issues {
			p.diag(num, is.sev, is.code, "%s", is.message)
		}
	case KindSitemap:
		p.f.Sitemaps = append(p.f.Sitemaps, Text{Value: v, Line: num})
	case KindHost:
		p.f.Hosts = append(p.f.Hosts, Text{Value: v, Line: num})
	}
}

// finish adds the file-level diagnostics.
func (p *parser) finish(size, parsed int) {
	if p.f.Truncated {
		p.diag(p.f.Lines+1, Error, CodeFileTooLarge, "file is %d bytes, over the %d-byte (500 KiB) limit crawlers must parse: the last %d bytes are not parsed", size, MaxFileBytes, size-parsed)
	}
	if p.badUTF8Lines > 0 {
		sev, where := Warning, "in comments or unknown lines only"
		if p.badUTF8InDirective {
			sev, where = Error, "in directives: patterns may not match as intended"
		}
		p.diag(p.badUTF8First, sev, CodeNotUTF8, "not UTF-8 (RFC 9309 §2.3): %d line(s) with invalid bytes, %s", p.badUTF8Lines, where)
	}
	switch {
	case p.ctlLines > 0 && p.htmlLine == 0 && !p.f.HasDirective():
		p.diag(p.ctlFirst, Error, CodeBinary, "binary data, not a robots.txt: control characters in %d line(s) and not one directive", p.ctlLines)
	case p.ctlLines > 0:
		p.diag(p.ctlFirst, Warning, CodeControlChar, "NUL or control characters (binary data?) in %d line(s)", p.ctlLines)
	}
	if p.htmlLine > 0 {
		p.diag(p.htmlLine, Error, CodeHTML, "looks like an HTML page, not a robots.txt (%d unrecognised lines after this one are not listed)", p.unknownAfterHTML)
	}
}

// compressedMagic are the leading bytes of compressed formats a server may
// send as robots.txt (a gzip file served without Content-Encoding, a
// backup put in its place).
var compressedMagic = []struct{ magic, name string }{
	{"\x1f\x8b", "gzip"},
	{"\x28\xb5\x2f\xfd", "zstd"},
	{"BZh", "bzip2"},
	{"\xfd7zXZ\x00", "xz"},
	{"PK\x03\x04", "zip"},
}

// wrongContent recognises content that is no text a crawler could read
// rules from: UTF-16 (by its byte order mark, or ASCII with a NUL beside
// every character) and compressed data (by its magic number).
func wrongContent(data []byte) (Diagnostic, bool) {
	for _, c := range compressedMagic {
		if bytes.HasPrefix(data, []byte(c.magic)) && (c.name != "bzip2" || len(data) > 3 && data[3] >= '1' && data[3] <= '9') {
			return Diagnostic{Line: 1, Severity: Error, Code: CodeCompressed,
				Message: fmt.Sprintf("%s-compressed data, not a robots.txt: crawlers read it as text and find no rule (serve the file uncompressed, or with Content-Encoding: %s)", c.name, c.name)}, true
		}
	}
	if enc := utf16Encoding(data); enc != "" {
		return Diagnostic{Line: 1, Severity: Error, Code: CodeUTF16,
			Message: fmt.Sprintf("%s text, not UTF-8: crawlers read robots.txt as UTF-8 (RFC 9309 §2.3) and find no rule in it; save it as UTF-8", enc)}, true
	}
	return Diagnostic{}, false
}

// utf16Encoding returns "UTF-16LE" or "UTF-16BE" when data's first bytes
// are UTF-16 text: ASCII characters each beside a NUL, all of them without a
// byte order mark, three in four after one (a robots.txt is mostly ASCII);
// "" otherwise.
func utf16Encoding(data []byte) string {
	bom := ""
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		bom, data = "UTF-16LE", data[2:]
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		bom, data = "UTF-16BE", data[2:]
	}
	n := min(len(data), 128) &^ 1
	if n < 8 {
		if bom != "" && n == len(data) {
			return bom // a mark and (almost) nothing else
		}
		return ""
	}
	le, be := 0, 0
	for i := 0; i < n; i += 2 {
		lo, hi := data[i], data[i+1]
		if hi == 0 && lo != 0 && lo < 0x80 {
			le++
		}
		if lo == 0 && hi != 0 && hi < 0x80 {
			be++
		}
	}
	pairs, need := n/2, n/2
	if bom != "" {
		need = (3*pairs + 3) / 4
	}
	switch {
	case le >= need && bom != "UTF-16BE":
		return "UTF-16LE"
	case be >= need && bom != "UTF-16LE":
		return "UTF-16BE"
	}
	return ""
}

// standardSplit splits a line's content (comment removed, trimmed) into key
// and value as RFC 9309 reads it, leniently: whitespace around the colon is
// dropped, and a known key followed by whitespace instead of a colon
// ("user-agent FooBot", "Disallow /a:b") is read as if the colon were there
// (missing is then set). ok is false when the line has no key at all.
func standardSplit(content string) (key, value string, missing, ok bool) {
	colon := strings.IndexByte(content, ':')
	if colon >= 0 {
		key = strings.TrimRight(content[:colon], space)
		if !strings.ContainsAny(key, space) {
			if key == "" {
				return "", "", false, false
			}
			return key, strings.TrimLeft(content[colon+1:], space), false, true
		}
	}
	ws := strings.IndexAny(content, space)
	first := content
	if ws >= 0 {
		first = content[:ws]
	}
	if lookupKey(first) != KindUnknown {
		return first, strings.TrimLeft(content[len(first):], space), true, true
	}
	if colon >= 0 {
		return key, strings.TrimLeft(content[colon+1:], space), false, true
	}
	return "", "", false, false
}

// googleSplit splits a raw line as google/robotstxt's GetKeyAndValueFrom
// does. Google-only leniencies and limits, case by case:
//
//   - The line is cut to its first MaxLineBytes-1 bytes before anything else
//     (robots.cc, kMaxLineLen); the rest is ignored.
//   - Without a colon, whitespace separates key and value, but only when the
//     line has exactly two runs of non-whitespace ("disallow /x" is read,
//     "disallow /x y" is not a directive at all).
func googleSplit(raw string) (key, value string, ok bool) {
	if len(raw) > MaxLineBytes-1 {
		raw = raw[:MaxLineBytes-1]
	}
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	raw = strings.Trim(raw, space+"\r\n")
	sep := strings.IndexByte(raw, ':')
	if sep < 0 {
		sep = strings.IndexAny(raw, " \t")
		if sep < 0 {
			return "", "", false
		}
		if strings.ContainsAny(strings.TrimLeft(raw[sep:], " \t"), " \t") {
			return "", "", false
		}
	}
	key = strings.Trim(raw[:sep], space)
	if key == "" {
		return "", "", false
	}
	return key, strings.Trim(raw[sep+1:], space), true
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}

var htmlTags = []string{"!doctype", "html", "head", "body", "meta", "title", "script", "style", "link", "div", "span", "table", "p", "br", "a", "h1", "h2", "h3", "pre", "iframe", "noscript", "center", "form", "?xml"}

// looksLikeHTML reports whether a line's content starts with an HTML tag.
func looksLikeHTML(content string) bool {
	if len(content) < 2 || content[0] != '<' {
		return false
	}
	for _, t := range htmlTags {
		if hasPrefixFold(content[1:], t) {
			rest := content[1+len(t):]
			if rest == "" || rest[0] == '>' || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '/' {
				return true
			}
		}
	}
	return false
}

// quote quotes s for a message, cut to 60 bytes.
func quote(s string) string {
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
