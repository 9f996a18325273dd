package logfmt

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The jsonl format: one JSON object per line, as nginx (log_format with
// escape=json), Caddy, Traefik, Cloudflare Logpush and many others write
// access logs. Keys are mapped to Row fields automatically (see
// jsonAutoKeys), or explicitly with NewJSON.
//
// Decisions:
//   - Automatic mapping knows the keys of nginx's JSON conventions, Caddy,
//     Traefik, Cloudflare Logpush and the plain names (time, remote_addr,
//     method, uri, protocol, status, bytes, referer, user_agent). When a line
//     has several keys for one field, the most precise wins: Traefik's
//     StartUTC over its "time", nginx's msec over time_local, request_uri over
//     the request line over uri (nginx's $uri is normalised and has no
//     query), Caddy's request.client_ip (the client behind trusted proxies)
//     over request.remote_ip. Keys match exactly (case-sensitively), except
//     a top-level "X-Forwarded-For", which matches in any case; nested keys
//     are joined with '.' ("request.headers.User-Agent"), so a dotted path
//     also matches a flat key containing dots.
//   - A client address that is a list ("192.0.2.1, 10.0.0.5", as Traefik
//     logs an X-Forwarded-For chain) gives its first element, the client.
//   - The X-Forwarded-For header (nginx's http_x_forwarded_for, Caddy's
//     request.headers.X-Forwarded-For, Traefik's request_X-Forwarded-For,
//     x_forwarded_for, X-Forwarded-For, nginx's proxy_add_x_forwarded_for,
//     in that order) is kept whole, as logged: it is not the client address,
//     which only the audit may take from it.
//   - The headers of a signed request (Signature-Agent, Signature-Input,
//     Signature: nginx's http_signature_agent, Caddy's
//     request.headers.Signature-Agent, Traefik's request_Signature-Agent,
//     the plain signature_agent, and so on) are kept whole, like the
//     X-Forwarded-For header, and so is the scheme (nginx's scheme,
//     Traefik's RequestScheme, Cloudflare's ClientRequestScheme).
//   - The response's Retry-After header (nginx's sent_http_retry_after,
//     Caddy's resp_headers.Retry-After, Traefik's downstream_Retry-After,
//     the plain retry_after) is kept as logged, seconds or an HTTP-date.
//   - A key whose value is an array (Caddy's header lists) takes the array's
//     first element, except for the X-Forwarded-For header, whose string
//     elements (one per header line) are joined with ", " into one chain.
//     null, "" and "-" mean absent.
//   - Values may be strings or numbers. Times are ISO 8601 / RFC 3339 (a
//     missing offset is UTC), CLF ("10/Oct/2000:13:55:36 -0700"), or Unix
//     epoch numbers (or numeric strings) whose unit is decided by the size of
//     their integer part: up to 11 digits seconds, 12-14 milliseconds, 15-17
//     microseconds, 18 or more nanoseconds.
//   - A line is a request when it has a target (or a request line); client_ip
//     and time are required too. A JSON object without any request field
//     (Caddy's startup messages, application logs interleaved with the access
//     log) and a line that is not a JSON object are rejected with
//     ErrNotThisFormat; an object the line ends in (cut inside a string or
//     between two values: a log rotated or a disk filled mid-write, or a
//     logger's line-length limit) with ErrTruncatedLine, never taken for a
//     request; any other broken JSON object (bad escape, nesting deeper than
//     64, junk) with ErrSyntax; a request object without a target with
//     ErrBadRequestLine.
//   - A docker compose prefix ("caddy  | {...}", "web-1  | {...}": a
//     service name, spaces, '|' and a space) before the object is skipped;
//     any other prefix is not JSON. Whitespace after the object is allowed,
//     anything else is ErrSyntax.
//   - The scanner is strict about JSON structure but lenient about raw
//     control characters inside strings, which some loggers fail to escape.
//     String escapes ("\"", "\u00e9", surrogate pairs) are decoded; a lone
//     surrogate becomes U+FFFD, as in encoding/json.

func init() {
	register(Format{
		Name:      "jsonl",
		Doc:       "JSON lines: nginx JSON, Caddy, Traefik, Cloudflare Logpush and plain key names",
		New:       func() Parser { return newJSONParser(jsonAuto) },
		Sniffable: true,
	})
}

// jsonField is a Row field a JSON key can map to.
type jsonField uint8

const (
	jfTime jsonField = iota
	jfHost
	jfClientIP
	jfMethod
	jfTarget
	jfProtocol
	jfStatus
	jfBytes
	jfReferer
	jfUserAgent
	jfRequest      // a whole request line, "GET /path?q HTTP/1.1"
	jfForwardedFor // the X-Forwarded-For header, kept whole
	jfScheme       // "https" or "http"
	jfSigAgent     // the Signature-Agent header, kept whole
	jfSigInput     // the Signature-Input header, kept whole
	jfSignature    // the Signature header, kept whole
	jfRetryAfter   // the response's Retry-After header
	jfNum
)

// jsonFieldNames are the field names of an explicit mapping.
var jsonFieldNames = map[string]jsonField{
	"time":            jfTime,
	"host":            jfHost,
	"client_ip":       jfClientIP,
	"method":          jfMethod,
	"target":          jfTarget,
	"protocol":        jfProtocol,
	"status":          jfStatus,
	"bytes":           jfBytes,
	"referer":         jfReferer,
	"user_agent":      jfUserAgent,
	"request":         jfRequest,
	"forwarded_for":   jfForwardedFor,
	"scheme":          jfScheme,
	"signature_agent": jfSigAgent,
	"signature_input": jfSigInput,
	"signature":       jfSignature,
	"retry_after":     jfRetryAfter,
}

// jsonKey is what a key path maps to; among several keys of one line for the
// same field, the lowest prio wins (an explicit mapping has prio 0).
type jsonKey struct {
	field jsonField
	prio  uint8
}

// jsonAutoKeys is the automatic mapping.
var jsonAutoKeys = map[string]jsonKey{
	// time
	"StartUTC":           {jfTime, 1}, // Traefik
	"EdgeStartTimestamp": {jfTime, 1}, // Cloudflare
	"msec":               {jfTime, 2}, // nginx, seconds with ms
	"ts":                 {jfTime, 3}, // Caddy
	"time_iso8601":       {jfTime, 4}, // nginx
	"time_local":         {jfTime, 5}, // nginx
	"@timestamp":         {jfTime, 6}, // Logstash, ECS
	"timestamp":          {jfTime, 7},
	"time":               {jfTime, 8},
	// host
	"host":              {jfHost, 1}, // nginx $host
	"request.host":      {jfHost, 1}, // Caddy
	"RequestHost":       {jfHost, 1}, // Traefik
	"ClientRequestHost": {jfHost, 1}, // Cloudflare
	"http_host":         {jfHost, 2}, // nginx
	"server_name":       {jfHost, 3}, // nginx
	// client_ip
	"remote_addr":       {jfClientIP, 1}, // nginx, plain
	"request.client_ip": {jfClientIP, 1}, // Caddy 2.7+
	"ClientHost":        {jfClientIP, 1}, // Traefik
	"ClientIP":          {jfClientIP, 1}, // Cloudflare
	"request.remote_ip": {jfClientIP, 2}, // Caddy
	"client_ip":         {jfClientIP, 2},
	"remote_ip":         {jfClientIP, 3},
	// method
	"request_method":      {jfMethod, 1}, // nginx
	"request.method":      {jfMethod, 1}, // Caddy
	"RequestMethod":       {jfMethod, 1}, // Traefik
	"ClientRequestMethod": {jfMethod, 1}, // Cloudflare
	"method":              {jfMethod, 3},
	// target
	"request_uri":      {jfTarget, 1}, // nginx
	"request.uri":      {jfTarget, 1}, // Caddy
	"RequestPath":      {jfTarget, 1}, // Traefik (path and query)
	"ClientRequestURI": {jfTarget, 1}, // Cloudflare (path and query)
	"uri":              {jfTarget, 3}, // plain; nginx $uri has no query
	// the request line, ranked 2 for its method, target and protocol
	"request": {jfRequest, 2}, // nginx $request (Caddy's "request" is an object)
	// protocol
	"server_protocol":       {jfProtocol, 1}, // nginx
	"request.proto":         {jfProtocol, 1}, // Caddy
	"RequestProtocol":       {jfProtocol, 1}, // Traefik
	"ClientRequestProtocol": {jfProtocol, 1}, // Cloudflare
	"protocol":              {jfProtocol, 3},
	// status
	"status":             {jfStatus, 1}, // nginx, Caddy, plain
	"DownstreamStatus":   {jfStatus, 1}, // Traefik
	"EdgeResponseStatus": {jfStatus, 1}, // Cloudflare
	// bytes
	"body_bytes_sent":       {jfBytes, 1}, // nginx
	"size":                  {jfBytes, 1}, // Caddy
	"DownstreamContentSize": {jfBytes, 1}, // Traefik
	"EdgeResponseBytes":     {jfBytes, 1}, // Cloudflare
	"bytes":                 {jfBytes, 2},
	"bytes_sent":            {jfBytes, 3}, // nginx, with headers
	// referer
	"http_referer":            {jfReferer, 1}, // nginx
	"request.headers.Referer": {jfReferer, 1}, // Caddy
	"request_Referer":         {jfReferer, 1}, // Traefik
	"ClientRequestReferer":    {jfReferer, 1}, // Cloudflare
	"referer":                 {jfReferer, 2},
	"referrer":                {jfReferer, 2},
	// user_agent
	"http_user_agent":            {jfUserAgent, 1}, // nginx
	"request.headers.User-Agent": {jfUserAgent, 1}, // Caddy
	"request_User-Agent":         {jfUserAgent, 1}, // Traefik
	"ClientRequestUserAgent":     {jfUserAgent, 1}, // Cloudflare
	"user_agent":                 {jfUserAgent, 2},
	// forwarded_for; a top-level "X-Forwarded-For" matches in any case (see
	// jsonForwardedFor)
	"http_x_forwarded_for":            {jfForwardedFor, 1}, // nginx
	"request.headers.X-Forwarded-For": {jfForwardedFor, 1}, // Caddy (an array)
	"request_X-Forwarded-For":         {jfForwardedFor, 1}, // Traefik
	"x_forwarded_for":                 {jfForwardedFor, 2},
	"X-Forwarded-For":                 {jfForwardedFor, 2},
	"proxy_add_x_forwarded_for":       {jfForwardedFor, 3}, // nginx, with $remote_addr appended
	// scheme
	"scheme":              {jfScheme, 1}, // nginx $scheme, plain
	"RequestScheme":       {jfScheme, 1}, // Traefik
	"ClientRequestScheme": {jfScheme, 1}, // Cloudflare
	// the headers of a signed request (Web Bot Auth)
	"http_signature_agent":            {jfSigAgent, 1},  // nginx
	"request.headers.Signature-Agent": {jfSigAgent, 1},  // Caddy (an array)
	"request_Signature-Agent":         {jfSigAgent, 1},  // Traefik
	"signature_agent":                 {jfSigAgent, 2},  // plain
	"http_signature_input":            {jfSigInput, 1},  // nginx
	"request.headers.Signature-Input": {jfSigInput, 1},  // Caddy (an array)
	"request_Signature-Input":         {jfSigInput, 1},  // Traefik
	"signature_input":                 {jfSigInput, 2},  // plain
	"http_signature":                  {jfSignature, 1}, // nginx
	"request.headers.Signature":       {jfSignature, 1}, // Caddy (an array)
	"request_Signature":               {jfSignature, 1}, // Traefik
	"signature":                       {jfSignature, 2}, // plain
	// the response's Retry-After header
	"sent_http_retry_after":    {jfRetryAfter, 1}, // nginx
	"resp_headers.Retry-After": {jfRetryAfter, 1}, // Caddy (an array)
	"downstream_Retry-After":   {jfRetryAfter, 1}, // Traefik
	"retry_after":              {jfRetryAfter, 2}, // plain
}

// jsonWholeArray reports whether field f takes a whole array of header
// lines, joined with ", " (RFC 9110 §5.3: several lines of a list-valued
// header are one list), rather than its first element.
func jsonWholeArray(f jsonField) bool {
	return f == jfForwardedFor || f == jfSigAgent || f == jfSigInput || f == jfSignature
}

// jsonForwardedFor is what a top-level key spelt "x-forwarded-for" in any
// case maps to, when the mapping does not name that spelling itself.
var jsonForwardedFor = jsonKey{jfForwardedFor, 2}

// jsonMapping is a compiled key mapping, shared read-only by parsers.
type jsonMapping struct {
	// paths maps each key path to what it is: a mapped key, and/or the path
	// of an object to descend into (a proper prefix of a mapped dotted
	// path). Nested objects that are neither are only validated. One map
	// serves both questions, so each key costs one lookup.
	paths map[string]jsonPath
}

type jsonPath struct {
	key    jsonKey
	mapped bool
	prefix bool
}

var jsonAuto = compileJSONMapping(jsonAutoKeys)

func compileJSONMapping(keys map[string]jsonKey) *jsonMapping {
	m := &jsonMapping{paths: map[string]jsonPath{}}
	for k, v := range keys {
		e := m.paths[k]
		e.key, e.mapped = v, true
		m.paths[k] = e
		for i := 0; i < len(k); i++ {
			if k[i] == '.' {
				e := m.paths[k[:i]]
				e.prefix = true
				m.paths[k[:i]] = e
			}
		}
	}
	return m
}

// ParseJSONMapping parses the value of a flag such as
// --json-fields "time=ts,client_ip=request.remote_ip,user_agent=request.headers.User-Agent"
// into a map from field name to key path, for NewJSON. Fields are time, host,
// client_ip, method, target, protocol, status, bytes, referer, user_agent,
// request (a whole "GET /path HTTP/1.1" line), forwarded_for (the
// X-Forwarded-For header, kept whole; an array of strings is joined with
// ", "), scheme, and signature_agent, signature_input and signature (the
// headers of a signed request, kept whole like forwarded_for); paths are key names, with '.' between the keys of nested objects.
// Spaces around names are ignored.
func ParseJSONMapping(s string) (map[string]string, error) {
	m := map[string]string{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		field, path, ok := strings.Cut(item, "=")
		field, path = strings.TrimSpace(field), strings.TrimSpace(path)
		if !ok || field == "" || path == "" {
			return nil, fmt.Errorf("cannot parse JSON field mapping %q: want field=path, got %q", s, item)
		}
		if _, dup := m[field]; dup {
			return nil, fmt.Errorf("cannot parse JSON field mapping %q: field %q given twice", s, field)
		}
		m[field] = path
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("cannot parse JSON field mapping %q: no field=path pairs", s)
	}
	if err := checkJSONMapping(m); err != nil {
		return nil, fmt.Errorf("cannot parse JSON field mapping %q: %w", s, err)
	}
	return m, nil
}

func checkJSONMapping(mapping map[string]string) error {
	paths := map[string]string{}
	for _, field := range slices.Sorted(maps.Keys(mapping)) {
		path := mapping[field]
		if _, ok := jsonFieldNames[field]; !ok {
			return fmt.Errorf("unknown field %q (want one of %s)", field, strings.Join(slices.Sorted(maps.Keys(jsonFieldNames)), ", "))
		}
		if path == "" || strings.HasPrefix(path, ".") || strings.HasSuffix(path, ".") || strings.Contains(path, "..") {
			return fmt.Errorf("bad key path %q for field %q", path, field)
		}
		if other, dup := paths[path]; dup {
			return fmt.Errorf("key path %q mapped to both %q and %q", path, other, field)
		}
		paths[path] = field
	}
	return nil
}

// NewJSON returns the jsonl format with an explicit mapping from field names
// to key paths (as returned by ParseJSONMapping). Mapped keys take precedence
// over the automatic mapping, which still supplies the fields not mapped. The
// format has the name "jsonl" and does not take part in detection.
func NewJSON(mapping map[string]string) (Format, error) {
	if len(mapping) == 0 {
		return Format{}, errors.New("cannot use JSON field mapping: it is empty")
	}
	if err := checkJSONMapping(mapping); err != nil {
		return Format{}, fmt.Errorf("cannot use JSON field mapping: %w", err)
	}
	keys := maps.Clone(jsonAutoKeys)
	for field, path := range mapping {
		keys[path] = jsonKey{field: jsonFieldNames[field], prio: 0}
	}
	m := compileJSONMapping(keys)
	return Format{
		Name: "jsonl",
		Doc:  "JSON lines with an explicit field mapping",
		New:  func() Parser { return newJSONParser(m) },
	}, nil
}

// Kinds of a recorded JSON value.
const (
	jsonStr    uint8 = iota + 1 // a string without escapes
	jsonStrEsc                  // a string with escapes
	jsonNum                     // a number
	jsonArr                     // an array, '[' to ']' (header lists only, see jsonWholeArray)
)

// jsonVal is the best value seen so far for one field: offsets into the line
// (inside the quotes for strings).
type jsonVal struct {
	start, end int
	kind       uint8
	prio       uint8
}

// jsonMaxDepth bounds the nesting of objects and arrays.
const jsonMaxDepth = 64

type jsonParser struct {
	m       *jsonMapping
	line    []byte
	path    []byte
	vals    [jfNum]jsonVal
	scratch []byte
	// cut is set when the scan failed because the line ended inside the
	// object: the line is truncated.
	cut bool
}

// ended records that the scan ran out of line and returns -1.
func (p *jsonParser) ended() int {
	p.cut = true
	return -1
}

func newJSONParser(m *jsonMapping) *jsonParser { return &jsonParser{m: m} }

// Parse implements Parser.
func (p *jsonParser) Parse(line []byte, r *Row) error {
	r.Reset()
	line = trimLine(line)
	i := jsonSkipWS(line, 0)
	if i < len(line) && line[i] != '{' {
		i = jsonSkipComposePrefix(line, i)
	}
	if i >= len(line) || line[i] != '{' {
		return ErrNotThisFormat
	}
	p.line = line
	p.path = p.path[:0]
	p.vals = [jfNum]jsonVal{}
	p.cut = false
	i = p.object(i, 1, true)
	if i < 0 {
		if p.cut {
			return ErrTruncatedLine
		}
		return ErrSyntax
	}
	if jsonSkipWS(line, i) != len(line) {
		return ErrSyntax
	}
	if cap(p.scratch) < len(line) {
		p.scratch = make([]byte, 0, len(line)+64)
	}
	p.scratch = p.scratch[:0]
	return p.fill(r)
}

// jsonSkipComposePrefix returns the index of the '{' after a docker compose
// prefix "service  | " at line[i:], or i when there is none.
func jsonSkipComposePrefix(line []byte, i int) int {
	j := i
	for j < len(line) && (line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9' || line[j] == '_' || line[j] == '-' || line[j] == '.') {
		j++
	}
	if j == i || j-i > 128 {
		return i
	}
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j+1 >= len(line) || line[j] != '|' || line[j+1] != ' ' {
		return i
	}
	return jsonSkipWS(line, j+1)
}

func jsonSkipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// object scans the object at line[i] == '{' and returns the index after it,
// or -1. When tracked, p.path holds the object's key path and its keys are
// looked up in the mapping.
func (p *jsonParser) object(i, depth int, tracked bool) int {
	if depth > jsonMaxDepth {
		return -1
	}
	line := p.line
	i = jsonSkipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(line) {
			return p.ended()
		}
		if line[i] != '"' {
			return -1
		}
		ks := i + 1
		ke, esc := jsonScanString(line, ks)
		if ke == jsonCut {
			return p.ended()
		}
		if ke < 0 {
			return -1
		}
		var key jsonKey
		mapped, childTracked := false, false
		pathLen := len(p.path)
		if tracked {
			if pathLen > 0 {
				p.path = append(p.path, '.')
			}
			if esc {
				p.path = appendJSONUnescaped(p.path, line[ks:ke])
			} else {
				p.path = append(p.path, line[ks:ke]...)
			}
			e := p.m.paths[string(p.path)]
			key, mapped, childTracked = e.key, e.mapped, e.prefix
			if !mapped && pathLen == 0 && len(p.path) == len("x-forwarded-for") && asciiEqualFold(p.path, "x-forwarded-for") {
				key, mapped = jsonForwardedFor, true
			}
		}
		i = jsonSkipWS(line, ke+1)
		if i >= len(line) {
			return p.ended()
		}
		if line[i] != ':' {
			return -1
		}
		i = jsonSkipWS(line, i+1)
		if mapped {
			i = p.value(i, depth, &key, childTracked)
		} else {
			i = p.value(i, depth, nil, childTracked)
		}
		p.path = p.path[:pathLen]
		if i < 0 {
			return -1
		}
		i = jsonSkipWS(line, i)
		if i >= len(line) {
			return p.ended()
		}
		switch line[i] {
		case ',':
			i = jsonSkipWS(line, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// value scans the value at line[i] and returns the index after it, or -1.
// A scalar value is recorded for key when key is not nil; an array's first
// element is, except for the forwarded_for field, which records the whole
// array (see joinArray).
func (p *jsonParser) value(i, depth int, key *jsonKey, tracked bool) int {
	line := p.line
	if i >= len(line) {
		return p.ended()
	}
	switch c := line[i]; {
	case c == '"':
		end, esc := jsonScanString(line, i+1)
		if end == jsonCut {
			return p.ended()
		}
		if end < 0 {
			return -1
		}
		if key != nil {
			kind := jsonStr
			if esc {
				kind = jsonStrEsc
			}
			p.record(key, i+1, end, kind)
		}
		return end + 1
	case c == '{':
		return p.object(i, depth+1, tracked)
	case c == '[':
		if depth+1 > jsonMaxDepth {
			return -1
		}
		start := i
		i = jsonSkipWS(line, i+1)
		if i < len(line) && line[i] == ']' {
			return i + 1
		}
		var whole *jsonKey // the field that takes the whole array
		if key != nil && jsonWholeArray(key.field) {
			whole, key = key, nil
		}
		for {
			i = p.value(i, depth+1, key, false)
			if i < 0 {
				return -1
			}
			key = nil // only the first element counts
			i = jsonSkipWS(line, i)
			if i >= len(line) {
				return p.ended()
			}
			switch line[i] {
			case ',':
				i = jsonSkipWS(line, i+1)
			case ']':
				if whole != nil {
					p.record(whole, start, i+1, jsonArr)
				}
				return i + 1
			default:
				return -1
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		end := jsonScanNumber(line, i)
		if end == jsonCut {
			return p.ended()
		}
		if end < 0 {
			return -1
		}
		if key != nil {
			p.record(key, i, end, jsonNum)
		}
		return end
	case c == 't':
		return p.literal(i, "true")
	case c == 'f':
		return p.literal(i, "false")
	case c == 'n':
		return p.literal(i, "null")
	}
	return -1
}

// literal scans the literal lit at line[i] and returns the index after it,
// or -1.
func (p *jsonParser) literal(i int, lit string) int {
	line := p.line
	if len(line)-i < len(lit) {
		if lit[:len(line)-i] == string(line[i:]) {
			return p.ended()
		}
		return -1
	}
	if string(line[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// jsonCut is what jsonScanString and jsonScanNumber return when the line
// ends inside the string or number.
const jsonCut = -2

// record keeps a value for key's field unless a better-ranked key was seen.
// Among keys of equal rank the last one wins, as in encoding/json.
func (p *jsonParser) record(key *jsonKey, start, end int, kind uint8) {
	v := &p.vals[key.field]
	if v.kind != 0 && v.prio < key.prio {
		return
	}
	*v = jsonVal{start: start, end: end, kind: kind, prio: key.prio}
}

// jsonScanString returns the index of the closing quote of the string whose
// contents start at line[i], and whether it has escapes; -1 when it has a bad
// escape, jsonCut when the line ends inside it.
func jsonScanString(line []byte, i int) (int, bool) {
	// Fast path: no backslash before the closing quote.
	if q := bytes.IndexByte(line[i:], '"'); q >= 0 && bytes.IndexByte(line[i:i+q], '\\') < 0 {
		return i + q, false
	}
	esc := false
	for i < len(line) {
		switch line[i] {
		case '"':
			return i, esc
		case '\\':
			esc = true
			if i+1 >= len(line) {
				return jsonCut, false
			}
			switch line[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k == len(line) {
						return jsonCut, false
					}
					if hexDigitValue(line[k]) < 0 {
						return -1, false
					}
				}
				i += 6
			default:
				return -1, false
			}
		default:
			i++
		}
	}
	return jsonCut, false
}

// jsonScanNumber returns the index after the JSON number at line[i], -1
// when it is malformed, or jsonCut when the line ends before its digits.
func jsonScanNumber(line []byte, i int) int {
	if line[i] == '-' {
		i++
	}
	start := i
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == start && i == len(line) {
		return jsonCut
	}
	if i == start || line[start] == '0' && i > start+1 {
		return -1
	}
	if i < len(line) && line[i] == '.' {
		i++
		s := i
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == s && i == len(line) {
			return jsonCut
		}
		if i == s {
			return -1
		}
	}
	if i < len(line) && (line[i] == 'e' || line[i] == 'E') {
		i++
		if i < len(line) && (line[i] == '+' || line[i] == '-') {
			i++
		}
		s := i
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == s && i == len(line) {
			return jsonCut
		}
		if i == s {
			return -1
		}
	}
	return i
}

// appendJSONUnescaped appends the contents of a validated JSON string with
// its escapes decoded.
func appendJSONUnescaped(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := jsonHex4(s, i+1)
			if !ok {
				dst = append(dst, '\\', 'u')
				continue
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					r2, ok2 = jsonHex4(s, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, s[i])
		}
	}
	return dst
}

func jsonHex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		h := hexDigitValue(c)
		if h < 0 {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	return r, true
}

// str returns field f's value as bytes (decoded into the scratch buffer when
// it has escapes), or nil when it is absent, null, "" or "-".
func (p *jsonParser) str(f jsonField) []byte {
	v := p.vals[f]
	if v.kind == 0 {
		return nil
	}
	b := p.line[v.start:v.end]
	switch v.kind {
	case jsonStrEsc:
		start := len(p.scratch)
		p.scratch = appendJSONUnescaped(p.scratch, b)
		b = p.scratch[start:len(p.scratch):len(p.scratch)]
	case jsonArr:
		b = p.joinArray(b)
	}
	if len(b) == 0 || len(b) == 1 && b[0] == '-' {
		return nil
	}
	return b
}

// fill builds the row from the recorded values.
func (p *jsonParser) fill(r *Row) error {
	v := &p.vals
	if v[jfTarget].kind == 0 && v[jfRequest].kind == 0 && v[jfMethod].kind == 0 &&
		v[jfClientIP].kind == 0 && v[jfStatus].kind == 0 {
		return ErrNotThisFormat
	}

	r.Method = p.str(jfMethod)
	r.Target = p.str(jfTarget)
	r.Protocol = p.str(jfProtocol)
	if req := p.str(jfRequest); req != nil {
		rank := v[jfRequest].prio
		m, t, proto, ok := jsonSplitRequest(req)
		if !ok {
			if r.Target == nil || v[jfTarget].prio > rank {
				return ErrBadRequestLine
			}
		} else {
			if r.Method == nil || v[jfMethod].prio > rank {
				r.Method = m
			}
			if r.Target == nil || v[jfTarget].prio > rank {
				r.Target = t
			}
			if r.Protocol == nil || v[jfProtocol].prio > rank {
				r.Protocol = proto
			}
		}
	}
	if r.Target == nil {
		return ErrBadRequestLine
	}
	if r.Method != nil && !isMethodToken(r.Method) {
		return ErrBadRequestLine
	}

	tv := v[jfTime]
	if tv.kind == 0 {
		return ErrBadTimestamp
	}
	t, ok := jsonTime(p.str(jfTime), tv.kind == jsonNum)
	if !ok {
		return ErrBadTimestamp
	}
	r.Time = t

	ip := p.str(jfClientIP)
	if c := bytes.IndexByte(ip, ','); c >= 0 {
		// An X-Forwarded-For list ("192.0.2.1, 10.0.0.5"): the first is the client.
		ip = bytes.TrimSpace(ip[:c])
	}
	ip = unbracket(ip)
	if !isClientIP(ip) {
		return ErrBadClientIP
	}
	r.ClientIP = ip

	if err := setStatusBytes(r, p.str(jfStatus), p.str(jfBytes)); err != nil {
		return err
	}
	r.Host = p.str(jfHost)
	r.Referer = p.str(jfReferer)
	r.UserAgent = p.str(jfUserAgent)
	r.ForwardedFor = p.str(jfForwardedFor)
	if v[jfScheme].kind|v[jfSigAgent].kind|v[jfSigInput].kind|v[jfSignature].kind|v[jfRetryAfter].kind != 0 {
		// Most logs have none of these: one test instead of five calls.
		r.Scheme = p.str(jfScheme)
		r.SignatureAgent = p.str(jfSigAgent)
		r.SignatureInput = p.str(jfSigInput)
		r.Signature = p.str(jfSignature)
		r.RetryAfter = p.str(jfRetryAfter)
	}
	return nil
}

// joinArray returns the string elements of a JSON array that the scanner
// has validated, decoded and joined with ", " (several X-Forwarded-For
// header lines make one chain, RFC 9110 §5.3), skipping "" and "-" and any
// element that is not a string; nil when none is left. A lone element
// without escapes, the usual case, is returned as a sub-slice of the line;
// otherwise the result is built in the scratch buffer.
func (p *jsonParser) joinArray(arr []byte) []byte {
	// First pass: the one element to return as it is, if that is all.
	var only []byte
	n, esc := 0, false
	for i, depth := 0, 0; i < len(arr); i++ {
		switch arr[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case '"':
			end, e := jsonScanString(arr, i+1)
			if depth == 1 && !(end == i+1 || end == i+2 && arr[i+1] == '-') {
				n++
				only, esc = arr[i+1:end], esc || e
			}
			i = end
		}
	}
	switch {
	case n == 0:
		return nil
	case n == 1 && !esc:
		return only
	}
	// Second pass: decode and join.
	start := len(p.scratch)
	for i, depth := 0, 0; i < len(arr); i++ {
		switch arr[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case '"':
			end, e := jsonScanString(arr, i+1)
			if depth == 1 {
				mark := len(p.scratch)
				if mark > start {
					p.scratch = append(p.scratch, ", "...)
				}
				from := len(p.scratch)
				if e {
					p.scratch = appendJSONUnescaped(p.scratch, arr[i+1:end])
				} else {
					p.scratch = append(p.scratch, arr[i+1:end]...)
				}
				if v := p.scratch[from:]; len(v) == 0 || len(v) == 1 && v[0] == '-' {
					p.scratch = p.scratch[:mark]
				}
			}
			i = end
		}
	}
	if len(p.scratch) == start {
		return nil
	}
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}

// asciiEqualFold reports whether b equals the lower-case ASCII string s,
// ignoring the case of b.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// jsonSplitRequest splits a request line "GET /path HTTP/1.1" (or an HTTP/0.9
// "GET /path") into its parts.
func jsonSplitRequest(req []byte) (method, target, proto []byte, ok bool) {
	sp1 := -1
	for i, c := range req {
		if c == ' ' {
			sp1 = i
			break
		}
	}
	if sp1 <= 0 || sp1+1 >= len(req) {
		return nil, nil, nil, false
	}
	method, rest := req[:sp1], req[sp1+1:]
	sp2 := -1
	for i := len(rest) - 1; i >= 0; i-- {
		if rest[i] == ' ' {
			sp2 = i
			break
		}
	}
	if sp2 >= 0 && len(rest)-sp2 > 5 && string(rest[sp2+1:sp2+6]) == "HTTP/" {
		target, proto = rest[:sp2], rest[sp2+1:]
	} else {
		target = rest
	}
	if len(target) == 0 || !isMethodToken(method) {
		return nil, nil, nil, false
	}
	return method, target, proto, true
}

// jsonTime parses a time value: ISO 8601, CLF, or a Unix epoch whose unit is
// decided by its magnitude.
func jsonTime(b []byte, isNum bool) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	if !isNum {
		if t, ok := ParseISO8601(b); ok {
			return t, true
		}
		if t, ok := ParseCLFTime(b); ok {
			return t, true
		}
	}
	// An epoch number: count the digits of the integer part.
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, false
	}
	if n < len(b) && (b[n] == 'e' || b[n] == 'E' || b[n] == '.' && hasExponent(b[n:])) {
		return jsonFloatTime(b)
	}
	return ParseEpoch(b, epochUnit(n))
}

func hasExponent(b []byte) bool {
	for _, c := range b {
		if c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// epochUnit returns the unit of an epoch number with n digits before the
// point.
func epochUnit(n int) int64 {
	switch {
	case n <= 11:
		return EpochSeconds
	case n <= 14:
		return EpochMillis
	case n <= 17:
		return EpochMicros
	}
	return EpochNanos
}

// jsonFloatTime parses an epoch written with an exponent
// ("1.6938407917564995e+09"); rare, so it may allocate.
func jsonFloatTime(b []byte) (int64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f < 0 || f >= 1e20 {
		return 0, false
	}
	switch {
	case f < 1e11:
		return int64(f * 1e6), true
	case f < 1e14:
		return int64(f * 1e3), true
	case f < 1e17:
		return int64(f), true
	}
	return int64(f / 1e3), true
}
