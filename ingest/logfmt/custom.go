package logfmt

import (
	"errors"
	"fmt"
	"strings"
)

// NewCustom compiles a user-given line layout into a Format named "custom"
// (not sniffable: it is used with --log-format only). The dialect is told by
// the layout: Apache LogFormat %-directives or nginx log_format $variables.
// The layout may be given bare (`%h %l %u %t "%r" %>s %b`) or as the whole
// configuration line (`LogFormat "%h ... \"%r\" ..." nick`,
// `log_format main '$remote_addr ... ' '"$request" ...';`).
//
// Apache directives understood: %h %a %{c}a %{c}h (client; %a before %h
// before the peer address), %v %V %{Host}i (host; %V, then the Host header,
// then %v), %t and %{format}t (CLF or ISO 8601 strftime layouts, sec, msec,
// usec, msec_frac, usec_frac, begin:/end: prefixes), %r, %m, %U, %q, %H, %s
// and %>s (%>s preferred), %b %B (preferred) and %O, %{Referer}i,
// %{User-Agent}i, %{X-Forwarded-For}i, and the headers of a signed request
// %{Signature-Agent}i, %{Signature-Input}i, %{Signature}i (header names in
// any case), and the response header %{Retry-After}o.
// Conditions and modifiers (%400,501{...}i, %!200{...}i, %<s) are accepted.
// Every other directive (%l %u %D %T %p %A %X %I %k %L %P %R %f %e %n %o %C
// %{X-Real-IP}i, ...) is a skipped field.
//
// nginx variables understood: $remote_addr (then $realip_remote_addr),
// $host, $http_host, $server_name (host, in that order), $time_local,
// $time_iso8601, $msec, $request, $request_method, $request_uri, $uri,
// $document_uri, $args, $query_string, $is_args, $server_protocol, $status,
// $body_bytes_sent (before $bytes_sent), $http_referer, $http_user_agent,
// $http_x_forwarded_for (before $proxy_add_x_forwarded_for, which is the
// header with $remote_addr appended), $scheme, $http_signature_agent,
// $http_signature_input, $http_signature, $sent_http_retry_after. Every other variable
// ($remote_user, $request_time, $upstream_*, $http_x_real_ip, ...) is a
// skipped field.
//
// The X-Forwarded-For field fills Row.ForwardedFor whole, as logged (logger
// escapes undone), and the signature headers fill Row.SignatureAgent,
// Row.SignatureInput and Row.Signature the same way, Retry-After
// Row.RetryAfter; "-" or an empty value
// is absent. Like any field it must
// be present in every line: a layout that ends with "%{X-Forwarded-For}i"
// rejects lines without it.
//
// A layout must log the request time and the request target (a request
// line, or a URI); the client address is optional. Two fields with nothing
// between them cannot be told apart and are an error, except the usual
// "%U%q" and "$uri$is_args$args", which form the target, and runs of Apache
// time directives ("%{%Y-%m-%dT%H:%M:%S}t.%{usec_frac}t%{%z}t"), which form
// one time. A field whose value holds spaces (the request line, a CLF time,
// the user agent) must be followed by something more telling than blanks:
// quotes or brackets around it, or a literal such as ` "`.
//
// Lines must match the layout exactly: no extra trailing fields (use
// "combined" for that tolerance).
func NewCustom(layout string) (Format, error) {
	l, err := compileLayout(layout, false)
	if err != nil {
		return Format{}, err
	}
	return Format{
		Name: "custom",
		Doc:  "custom layout " + strings.TrimSpace(layout),
		New:  l.newParser,
	}, nil
}

// LayoutError is returned by NewCustom for a layout that cannot be compiled.
type LayoutError struct {
	Layout string // the layout as given
	Offset int    // byte offset of the problem in the layout text, or -1
	Msg    string
}

// Error implements error.
func (e *LayoutError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("cannot compile log format %q: at offset %d: %s", e.Layout, e.Offset, e.Msg)
	}
	return fmt.Sprintf("cannot compile log format %q: %s", e.Layout, e.Msg)
}

// dest is the Row field a layout field feeds.
type dest uint8

const (
	dNone dest = iota
	dClient
	dHost
	dTime
	dTarget // request line, target, path and query
	dMethod
	dProtocol
	dStatus
	dBytes
	dReferer
	dUserAgent
	dForwardedFor
	dScheme
	dSigAgent
	dSigInput
	dSignature
	dRetryAfter
	numDests
)

// kIsArgs is nginx's $is_args, used only while compiling.
const kIsArgs kind = 255

// elem is a literal or a field of a layout being compiled.
type elem struct {
	lit    string // the literal, when !field
	field  bool
	kind   kind
	dest   dest
	rank   int    // lower wins among fields of the same dest
	name   string // as written
	spec   string // Apache time directive: the text between the braces
	spaces bool   // the value may hold spaces
	at     int    // offset in the layout text
}

// compileLayout compiles an Apache or nginx layout. trailing tolerates extra
// fields after it.
func compileLayout(text string, trailing bool) (*layout, error) {
	fail := func(at int, format string, args ...any) error {
		return &LayoutError{Layout: text, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	body, dialect, err := unwrapConfig(text)
	if err != nil {
		return nil, &LayoutError{Layout: text, Offset: -1, Msg: err.Error()}
	}
	if strings.TrimSpace(body) == "" {
		return nil, fail(-1, "empty layout")
	}
	if dialect == "" {
		apache, nginx := countDirectives(body)
		switch {
		case apache > 0 && nginx > 0:
			return nil, fail(-1, "layout mixes Apache %%-directives and nginx $variables")
		case apache > 0:
			dialect = "apache"
		case nginx > 0:
			dialect = "nginx"
		default:
			return nil, fail(-1, "no %%-directive (Apache LogFormat) or $variable (nginx log_format) in the layout")
		}
	}
	var elems []elem
	if dialect == "apache" {
		elems, err = tokenizeApache(body)
	} else {
		elems, err = tokenizeNginx(body)
	}
	if err != nil {
		var le *LayoutError
		if errors.As(err, &le) {
			le.Layout = text
		}
		return nil, err
	}
	elems, err = mergeElems(elems)
	if err != nil {
		var le *LayoutError
		if errors.As(err, &le) {
			le.Layout = text
		}
		return nil, err
	}
	return buildLayout(text, elems, trailing)
}

// unwrapConfig strips an Apache "LogFormat" or nginx "log_format"
// configuration line down to the layout. dialect is "" for a bare layout.
func unwrapConfig(text string) (body, dialect string, err error) {
	s := strings.TrimSpace(text)
	word, rest, _ := strings.Cut(s, " ")
	switch strings.ToLower(word) {
	case "logformat":
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, `"`) {
			return "", "", errors.New("LogFormat must be followed by a double-quoted layout")
		}
		var b strings.Builder
		for i := 1; i < len(rest); i++ {
			switch c := rest[i]; c {
			case '\\':
				if i+1 < len(rest) {
					i++
					switch rest[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(rest[i])
					}
				}
			case '"':
				return b.String(), "apache", nil
			default:
				b.WriteByte(c)
			}
		}
		return "", "", errors.New("LogFormat layout has no closing double quote")
	case "log_format":
		rest = strings.TrimSpace(rest)
		_, rest, _ = strings.Cut(rest, " ") // the format's name
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "escape=") {
			_, rest, _ = strings.Cut(rest, " ")
		}
		var b strings.Builder
		for rest = strings.TrimSpace(rest); rest != "" && rest[0] != ';'; rest = strings.TrimSpace(rest) {
			q := rest[0]
			if q != '\'' && q != '"' {
				// An unquoted word: nginx takes it up to the next blank.
				w, r, _ := strings.Cut(rest, " ")
				b.WriteString(strings.TrimSuffix(w, ";"))
				if strings.HasSuffix(w, ";") {
					break
				}
				rest = r
				continue
			}
			end := -1
			for i := 1; i < len(rest); i++ {
				if rest[i] == '\\' {
					i++
					continue
				}
				if rest[i] == q {
					end = i
					break
				}
			}
			if end < 0 {
				return "", "", errors.New("log_format string has no closing quote")
			}
			part := rest[1:end]
			part = strings.ReplaceAll(part, `\`+string(q), string(q))
			b.WriteString(part)
			rest = rest[end+1:]
		}
		if b.Len() == 0 {
			return "", "", errors.New("log_format without a layout string")
		}
		return b.String(), "nginx", nil
	}
	return text, "", nil
}

// countDirectives counts what look like Apache directives and nginx
// variables in a bare layout.
func countDirectives(s string) (apache, nginx int) {
	for i := 0; i < len(s)-1; i++ {
		c, n := s[i], s[i+1]
		switch c {
		case '%':
			if n == '%' {
				i++
				continue
			}
			if n == '{' || n == '>' || n == '<' || n == '!' || n == '^' || isLetter(n) || n >= '0' && n <= '9' {
				apache++
			}
		case '$':
			if n == '{' || isLetter(n) || n == '_' {
				nginx++
			}
		}
	}
	return apache, nginx
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func litElem(s string) elem { return elem{lit: s} }

// tokenizeApache splits an Apache LogFormat string into elements.
func tokenizeApache(s string) ([]elem, error) {
	var out []elem
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, litElem(lit.String()))
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) { // escapes as in the configuration file
			i++
			switch s[i] {
			case 'n':
				lit.WriteByte('\n')
			case 't':
				lit.WriteByte('\t')
			default:
				lit.WriteByte(s[i])
			}
			continue
		}
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		at := i
		i++
		if i == len(s) {
			return nil, &LayoutError{Offset: at, Msg: "'%' at the end of the layout"}
		}
		if s[i] == '%' {
			lit.WriteByte('%')
			continue
		}
		// Conditions ("400,501", "!200") and modifiers ('<', '>').
		final := false
		for i < len(s) && strings.IndexByte("!0123456789,<>", s[i]) >= 0 {
			if s[i] == '>' {
				final = true
			}
			i++
		}
		var arg string
		hasArg := false
		if i < len(s) && s[i] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, &LayoutError{Offset: at, Msg: "unterminated %{...}"}
			}
			arg, hasArg = s[i+1:i+end], true
			i += end + 1
		}
		if i == len(s) {
			return nil, &LayoutError{Offset: at, Msg: fmt.Sprintf("incomplete directive %q", s[at:])}
		}
		letter := string(s[i])
		if s[i] == '^' { // %^ti, %^to: trailers
			if i+2 >= len(s) {
				return nil, &LayoutError{Offset: at, Msg: fmt.Sprintf("incomplete directive %q", s[at:])}
			}
			letter = s[i : i+3]
			i += 2
		} else if !isLetter(s[i]) {
			return nil, &LayoutError{Offset: at, Msg: fmt.Sprintf("incomplete directive %q", s[at:i+1])}
		}
		name := s[at : i+1]
		flush()
		if letter == "t" && !hasArg {
			out = append(out, litElem("["),
				elem{field: true, kind: kTimeCLF, dest: dTime, rank: 1, name: name, spec: "%d/%b/%Y:%H:%M:%S %z", spaces: true, at: at},
				litElem("]"))
			continue
		}
		out = append(out, apacheField(letter, arg, final, name, at))
	}
	flush()
	return out, nil
}

// apacheField maps one Apache directive to a field.
func apacheField(letter, arg string, final bool, name string, at int) elem {
	e := elem{field: true, kind: kSkip, name: name, at: at}
	set := func(k kind, d dest, rank int) { e.kind, e.dest, e.rank = k, d, rank }
	switch letter {
	case "a":
		if arg == "c" {
			set(kClient, dClient, 2)
		} else {
			set(kClient, dClient, 0)
		}
	case "h":
		if arg == "c" {
			set(kClient, dClient, 2)
		} else {
			set(kClient, dClient, 1)
		}
	case "v":
		set(kHost, dHost, 2)
	case "V":
		set(kHost, dHost, 0)
	case "t":
		e.spec = arg
		e.kind, e.dest = kSkip, dTime // classified in mergeElems
		e.spaces = strings.Contains(arg, " ")
	case "r":
		set(kRequest, dTarget, 0)
		e.spaces = true
	case "m":
		set(kMethod, dMethod, 0)
	case "U":
		set(kPath, dTarget, 2)
	case "q":
		set(kQueryQ, dTarget, 2)
	case "H":
		set(kProtocol, dProtocol, 0)
	case "s":
		if final {
			set(kStatus, dStatus, 0)
		} else {
			set(kStatus, dStatus, 1)
		}
	case "b":
		set(kBytesCLF, dBytes, 0)
	case "B":
		set(kBytes, dBytes, 0)
	case "O":
		set(kBytes, dBytes, 1)
	case "i":
		switch strings.ToLower(arg) {
		case "referer", "referrer":
			set(kReferer, dReferer, 0)
		case "user-agent":
			set(kUserAgent, dUserAgent, 0)
			e.spaces = true
		case "host":
			set(kHost, dHost, 1)
		case "x-forwarded-for":
			set(kForwarded, dForwardedFor, 0)
		case "signature-agent":
			set(kSigAgent, dSigAgent, 0)
			e.spaces = true
		case "signature-input":
			set(kSigInput, dSigInput, 0)
			e.spaces = true
		case "signature":
			set(kSignature, dSignature, 0)
			e.spaces = true
		}
	case "o":
		if strings.EqualFold(arg, "retry-after") {
			set(kRetryAfter, dRetryAfter, 0)
			e.spaces = true // an HTTP-date
		}
	}
	return e
}

// tokenizeNginx splits an nginx log_format string into elements.
func tokenizeNginx(s string) ([]elem, error) {
	var out []elem
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 == len(s) {
			lit.WriteByte(c)
			continue
		}
		at := i
		var name string
		if s[i+1] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, &LayoutError{Offset: at, Msg: "unterminated ${...}"}
			}
			name = s[i+2 : i+end]
			i += end
		} else {
			j := i + 1
			for j < len(s) && (isLetter(s[j]) || s[j] == '_' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			name = s[i+1 : j]
			i = j - 1
		}
		if name == "" {
			lit.WriteByte('$')
			continue
		}
		if lit.Len() > 0 {
			out = append(out, litElem(lit.String()))
			lit.Reset()
		}
		out = append(out, nginxField(strings.ToLower(name), s[at:i+1], at))
	}
	if lit.Len() > 0 {
		out = append(out, litElem(lit.String()))
	}
	return out, nil
}

// nginxField maps one nginx variable to a field.
func nginxField(v, name string, at int) elem {
	e := elem{field: true, kind: kSkip, name: name, at: at}
	set := func(k kind, d dest, rank int) { e.kind, e.dest, e.rank = k, d, rank }
	switch v {
	case "remote_addr":
		set(kClient, dClient, 0)
	case "realip_remote_addr":
		set(kClient, dClient, 2)
	case "host":
		set(kHost, dHost, 0)
	case "http_host":
		set(kHost, dHost, 1)
	case "server_name":
		set(kHost, dHost, 2)
	case "time_local":
		set(kTimeCLF, dTime, 1)
		e.spaces = true
	case "time_iso8601":
		set(kTimeISO, dTime, 1)
	case "msec":
		set(kTimeSec, dTime, 0)
	case "request":
		set(kRequest, dTarget, 0)
		e.spaces = true
	case "request_method":
		set(kMethod, dMethod, 0)
	case "request_uri":
		set(kTarget, dTarget, 1)
	case "uri", "document_uri":
		set(kPath, dTarget, 2)
	case "args", "query_string":
		set(kQuery, dTarget, 2)
	case "is_args":
		e.kind = kIsArgs
	case "server_protocol":
		set(kProtocol, dProtocol, 0)
	case "status":
		set(kStatus, dStatus, 0)
	case "body_bytes_sent":
		set(kBytes, dBytes, 0)
	case "bytes_sent":
		set(kBytes, dBytes, 1)
	case "http_referer":
		set(kReferer, dReferer, 0)
	case "http_user_agent":
		set(kUserAgent, dUserAgent, 0)
		e.spaces = true
	case "http_x_forwarded_for":
		set(kForwarded, dForwardedFor, 0)
	case "proxy_add_x_forwarded_for":
		set(kForwarded, dForwardedFor, 1)
	case "scheme":
		set(kScheme, dScheme, 0)
	case "http_signature_agent":
		set(kSigAgent, dSigAgent, 0)
		e.spaces = true
	case "http_signature_input":
		set(kSigInput, dSigInput, 0)
		e.spaces = true
	case "http_signature":
		set(kSignature, dSignature, 0)
		e.spaces = true
	case "sent_http_retry_after":
		set(kRetryAfter, dRetryAfter, 0)
		e.spaces = true // an HTTP-date
	}
	return e
}

// mergeElems joins adjacent literals, turns runs of Apache time directives
// into one time field, joins "%U%q" and "$uri$is_args$args" into a target,
// and rejects any other pair of adjacent fields.
func mergeElems(in []elem) ([]elem, error) {
	// Apache time runs: %{...}t directives separated by at most one of
	// ". ,:" form one time value.
	var out []elem
	for i := 0; i < len(in); i++ {
		e := in[i]
		if !(e.field && e.dest == dTime && e.spec != "" && e.kind == kSkip) {
			out = append(out, e)
			continue
		}
		spec := normSpec(e.spec)
		j := i + 1
		for {
			k := j
			sep := ""
			if k < len(in) && !in[k].field && len(in[k].lit) == 1 && strings.Contains(". ,:", in[k].lit) {
				sep = in[k].lit
				k++
			}
			if k < len(in) && in[k].field && in[k].dest == dTime && in[k].spec != "" && in[k].kind == kSkip && isTimePart(in[k].spec) {
				spec += sep + normSpec(in[k].spec)
				e.spaces = e.spaces || sep == " " || in[k].spaces
				j = k + 1
				continue
			}
			break
		}
		e.kind, e.rank = classifySpec(spec)
		if e.kind == kSkip {
			e.dest = dNone
			e.spec = "unsupported:" + spec
		}
		out = append(out, e)
		i = j - 1
	}
	in = out
	out = nil
	for i := 0; i < len(in); i++ {
		e := in[i]
		if !e.field {
			if n := len(out); n > 0 && !out[n-1].field {
				out[n-1].lit += e.lit
				continue
			}
			out = append(out, e)
			continue
		}
		n := len(out)
		if n == 0 || !out[n-1].field {
			out = append(out, e)
			continue
		}
		prev := &out[n-1]
		switch {
		case prev.kind == kPath && e.kind == kQueryQ: // %U%q
			prev.kind, prev.rank, prev.name = kTarget, 1, prev.name+e.name
		case prev.kind == kPath && e.kind == kIsArgs && i+1 < len(in) && in[i+1].field && in[i+1].kind == kQuery: // $uri$is_args$args
			prev.kind, prev.rank, prev.name = kTarget, 1, prev.name+e.name+in[i+1].name
			i++
		default:
			return nil, &LayoutError{Offset: e.at, Msg: fmt.Sprintf("%s follows %s with nothing between them: cannot tell where one ends", e.name, prev.name)}
		}
	}
	for i := range out {
		if out[i].kind == kIsArgs {
			out[i].kind = kSkip
		}
	}
	return out, nil
}

// normSpec expands the strftime shorthands %F and %T and turns the
// fraction directives into "%f".
func normSpec(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "begin:"), "end:")
	switch s {
	case "msec_frac", "usec_frac":
		return "%f"
	}
	return strings.NewReplacer("%F", "%Y-%m-%d", "%T", "%H:%M:%S").Replace(s)
}

// isTimePart reports whether an Apache time directive can continue a run
// (a strftime fragment or a fraction, not a whole epoch time).
func isTimePart(spec string) bool {
	s := normSpec(spec)
	return s == "%f" || strings.Contains(s, "%")
}

// classifySpec maps a (merged) Apache time specification to a time kind and
// rank; kSkip when it is not understood.
func classifySpec(s string) (kind, int) {
	switch s {
	case "sec", "sec.%f":
		return kTimeSec, 0
	case "msec":
		return kTimeMilli, 0
	case "usec":
		return kTimeMicro, 0
	}
	if rest, ok := strings.CutPrefix(s, "%d/%b/%Y:%H:%M:%S"); ok {
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".%f"), ",%f")
		if rest == "" || rest == " %z" {
			return kTimeCLF, 1
		}
		return kSkip, 0
	}
	if rest, ok := strings.CutPrefix(s, "%Y-%m-%d"); ok && rest != "" && (rest[0] == 'T' || rest[0] == ' ') {
		rest, ok = strings.CutPrefix(rest[1:], "%H:%M:%S")
		if !ok {
			return kSkip, 0
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".%f"), ",%f")
		switch rest {
		case "", "%z", " %z", "Z":
			return kTimeISO, 1
		}
	}
	return kSkip, 0
}

// buildLayout resolves which field feeds each Row field, checks that the
// layout is usable and builds the compiled layout.
func buildLayout(text string, elems []elem, trailing bool) (*layout, error) {
	fail := func(at int, format string, args ...any) error {
		return &LayoutError{Layout: text, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	// The request line wins over a target, which wins over path and query.
	var best [numDests]int
	for i := range best {
		best[i] = -1
	}
	hasRequest := false
	for i, e := range elems {
		if !e.field || e.dest == dNone {
			continue
		}
		if e.kind == kRequest {
			hasRequest = true
		}
		if b := best[e.dest]; b < 0 || e.rank < elems[b].rank {
			best[e.dest] = i
		}
	}
	var unsupported string
	for i := range elems {
		e := &elems[i]
		if !e.field {
			continue
		}
		if strings.HasPrefix(e.spec, "unsupported:") && unsupported == "" {
			unsupported = e.name
		}
		if e.dest == dNone {
			continue
		}
		keep := best[e.dest] == i
		switch {
		case e.dest == dTarget && (e.kind == kPath || e.kind == kQuery || e.kind == kQueryQ):
			// path and query work together, unless a better target exists
			keep = elems[best[dTarget]].kind == kPath || elems[best[dTarget]].kind == kQuery || elems[best[dTarget]].kind == kQueryQ
		case (e.dest == dMethod || e.dest == dProtocol) && hasRequest:
			keep = false
		}
		if !keep {
			e.kind = kSkip
		}
	}
	if best[dTime] < 0 {
		if unsupported != "" {
			return nil, fail(-1, "the only time field %s has an unsupported format; use %%t, %%{sec}t, %%{msec}t, %%{usec}t, a CLF or ISO 8601 strftime layout", unsupported)
		}
		return nil, fail(-1, "layout logs no request time (%%t, %%{...}t, $time_local, $time_iso8601 or $msec)")
	}
	if best[dTarget] < 0 {
		return nil, fail(-1, "layout logs no request target (%%r, %%U, $request, $request_uri or $uri)")
	}
	if t := elems[best[dTarget]]; t.kind == kQuery || t.kind == kQueryQ {
		return nil, fail(t.at, "layout logs a query (%s) without a path", t.name)
	}
	l := &layout{trailing: trailing}
	lit := ""
	for i, e := range elems {
		if !e.field {
			lit = e.lit
			continue
		}
		next := ""
		if i+1 < len(elems) && !elems[i+1].field {
			next = elems[i+1].lit
		}
		quoted := strings.HasSuffix(lit, `"`) && strings.HasPrefix(next, `"`)
		if e.spaces && !quoted && next != "" && strings.Trim(next, " \t") == "" {
			return nil, fail(e.at, "%s may hold spaces and is followed by a space: put it between quotes or brackets", e.name)
		}
		l.fields = append(l.fields, field{lit: []byte(lit), kind: e.kind, quoted: quoted, spaces: e.spaces, name: e.name})
		if e.kind == kTimeCLF && strings.HasSuffix(lit, "[") {
			l.clfDate = true
		}
		lit = ""
	}
	l.tail = []byte(lit)
	l.prepare()
	return l, nil
}

// mustCompile compiles a built-in Apache layout.
func mustCompile(text string, trailing bool) *layout {
	l, err := compileLayout(text, trailing)
	if err != nil {
		panic(err)
	}
	return l
}
