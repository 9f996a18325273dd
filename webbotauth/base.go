package webbotauth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dunglas/httpsfv"
)

// Message is what a log holds of a signed request: the components a
// signature base is rebuilt from.
type Message struct {
	// Method is the request method as logged ("GET").
	Method string
	// Authority is the Host the request was sent to, as logged (a port is
	// kept, and dropped when it is the scheme's default).
	Authority string
	// Scheme is "https" or "http"; empty means https, as most signed agents
	// reach sites over TLS and most logs do not record the scheme.
	Scheme string
	// Target is the request target as logged: path and query
	// ("/a?b=1"), or an absolute URI.
	Target string
	// Headers holds the logged header fields by lower-case name
	// ("signature-agent", "user-agent"), each as one combined value.
	Headers map[string]string
	// signatureAgent is the logged Signature-Agent, which Verify adds to
	// Headers without copying the map.
	signatureAgent string
}

// header returns the logged value of the header name (lower case).
func (m *Message) header(name string) (string, bool) {
	if name == "signature-agent" && m.signatureAgent != "" {
		return m.signatureAgent, true
	}
	v, ok := m.Headers[name]
	return v, ok
}

// errMissing marks a covered component the message does not hold: the
// signature cannot be checked from the log, which says nothing about it.
var errMissing = errors.New("not in the log")

// errBadSignature is returned by verifySig for a signature that does not
// verify.
var errBadSignature = errors.New("the signature does not verify")

// componentError says which covered component could not be rebuilt.
type componentError struct {
	ident string
	err   error
	why   string
}

func (e *componentError) Error() string {
	if e.why != "" {
		return fmt.Sprintf("covered component %s: %s", e.ident, e.why)
	}
	return fmt.Sprintf("covered component %s: %v", e.ident, e.err)
}

func (e *componentError) Unwrap() error { return e.err }

func (m *Message) scheme() string {
	if m.Scheme == "" {
		return "https"
	}
	return strings.ToLower(m.Scheme)
}

// authority is @authority (RFC 9421 §2.2.3): the host lower-cased, the
// default port of the scheme dropped.
func (m *Message) authority() string {
	a := strings.ToLower(m.Authority)
	if s := m.scheme(); s == "https" {
		a = strings.TrimSuffix(a, ":443")
	} else if s == "http" {
		a = strings.TrimSuffix(a, ":80")
	}
	return a
}

// pathQuery splits the target into path and query (without '?'), and says
// whether it had a '?'.
func (m *Message) pathQuery() (path, query string, hasQuery bool) {
	t := m.Target
	if i := strings.Index(t, "://"); i >= 0 && i < 8 {
		// An absolute URI: the path starts after the authority.
		rest := t[i+3:]
		if j := strings.IndexAny(rest, "/?"); j >= 0 {
			t = rest[j:]
		} else {
			t = ""
		}
	}
	path, query, hasQuery = strings.Cut(t, "?")
	if j := strings.IndexByte(query, '#'); j >= 0 {
		query = query[:j]
	}
	if path == "" {
		path = "/"
	}
	return path, query, hasQuery
}

// componentValue returns the value of one covered component (RFC 9421 §2.1
// and §2.2) from the message.
func (m *Message) componentValue(it httpsfv.Item) (string, error) {
	name := it.Value.(string)
	ident, _ := httpsfv.Marshal(it)
	for _, p := range it.Params.Names() {
		switch p {
		case "key", "sf":
		default:
			// req (a response's request), bs (byte sequences of each
			// line), tr (trailers), name (@query-param): a log holds
			// none of what they need.
			return "", &componentError{ident: ident, err: errMissing, why: "parameter ;" + p + " needs what a log does not hold"}
		}
	}
	if strings.HasPrefix(name, "@") {
		if len(it.Params.Names()) > 0 {
			return "", &componentError{ident: ident, err: errMissing, why: "a derived component takes no parameter here"}
		}
		switch name {
		case "@method":
			if m.Method == "" {
				return "", &componentError{ident: ident, err: errMissing}
			}
			return m.Method, nil
		case "@authority":
			if m.Authority == "" {
				return "", &componentError{ident: ident, err: errMissing, why: "the log has no host"}
			}
			return m.authority(), nil
		case "@scheme":
			return m.scheme(), nil
		case "@target-uri":
			if m.Target == "" || m.Authority == "" {
				return "", &componentError{ident: ident, err: errMissing, why: "the log has no host or no target"}
			}
			if strings.HasPrefix(m.Target, "https://") || strings.HasPrefix(m.Target, "http://") {
				return m.Target, nil
			}
			return m.scheme() + "://" + m.authority() + m.Target, nil
		case "@request-target":
			if m.Target == "" {
				return "", &componentError{ident: ident, err: errMissing}
			}
			return m.Target, nil
		case "@path":
			if m.Target == "" {
				return "", &componentError{ident: ident, err: errMissing}
			}
			p, _, _ := m.pathQuery()
			return p, nil
		case "@query":
			if m.Target == "" {
				return "", &componentError{ident: ident, err: errMissing}
			}
			// §2.2.7: the query with its leading '?', or "?" alone.
			_, q, _ := m.pathQuery()
			return "?" + q, nil
		}
		return "", &componentError{ident: ident, err: errMissing, why: "not a request component a log holds"}
	}
	v, ok := m.header(name)
	if !ok || v == "" {
		return "", &componentError{ident: ident, err: errMissing, why: "the log does not hold the " + name + " header"}
	}
	v = strings.TrimSpace(v)
	if key, ok := it.Params.Get("key"); ok {
		// §2.1.2: one member of a dictionary field, serialised.
		k, _ := key.(string)
		d, err := httpsfv.UnmarshalDictionary([]string{v})
		if err != nil {
			return "", &componentError{ident: ident, err: errMalformed, why: "the " + name + " header is not a dictionary"}
		}
		mem, ok := d.Get(k)
		if !ok {
			return "", &componentError{ident: ident, err: errMalformed, why: fmt.Sprintf("the %s header has no member %q", name, k)}
		}
		one := httpsfv.NewDictionary()
		one.Add(k, mem)
		s, err := httpsfv.Marshal(one)
		if err != nil {
			return "", &componentError{ident: ident, err: errMalformed, why: err.Error()}
		}
		return s[len(k)+1:], nil
	}
	if _, ok := it.Params.Get("sf"); ok {
		// §2.1.1: the field re-serialised; only dictionaries are known
		// here (Signature-Agent); an item or list is tried after.
		if d, err := httpsfv.UnmarshalDictionary([]string{v}); err == nil {
			s, _ := httpsfv.Marshal(d)
			return s, nil
		}
		if i, err := httpsfv.UnmarshalItem([]string{v}); err == nil {
			s, _ := httpsfv.Marshal(i)
			return s, nil
		}
		return "", &componentError{ident: ident, err: errMalformed, why: "the " + name + " header is not a structured field"}
	}
	return v, nil
}

// errMalformed marks a header that is not the structured field it must be.
var errMalformed = errors.New("malformed structured field")

// buildBase rebuilds the signature base of RFC 9421 §2.5 for the covered
// components of params from m: one line per component, "identifier: value",
// then the "@signature-params" line, serialised from params.
func buildBase(m *Message, params httpsfv.InnerList) (string, error) {
	var b strings.Builder
	seen := make(map[string]bool, len(params.Items))
	for _, it := range params.Items {
		if _, ok := it.Value.(string); !ok {
			return "", &componentError{ident: fmt.Sprint(it.Value), err: errMalformed, why: "a component identifier must be a string"}
		}
		ident, err := httpsfv.Marshal(it)
		if err != nil {
			return "", &componentError{ident: fmt.Sprint(it.Value), err: errMalformed, why: err.Error()}
		}
		if seen[ident] {
			// §2.5 step 2.1: a component listed twice fails the base.
			return "", &componentError{ident: ident, err: errMalformed, why: "listed twice"}
		}
		seen[ident] = true
		if it.Value.(string) == "@signature-params" {
			return "", &componentError{ident: ident, err: errMalformed, why: "@signature-params cannot be covered"}
		}
		v, err := m.componentValue(it)
		if err != nil {
			return "", err
		}
		if strings.ContainsAny(v, "\r\n") {
			return "", &componentError{ident: ident, err: errMalformed, why: "the value holds a line break"}
		}
		b.WriteString(ident)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	sp, err := httpsfv.Marshal(httpsfv.List{params})
	if err != nil {
		return "", &componentError{ident: `"@signature-params"`, err: errMalformed, why: err.Error()}
	}
	b.WriteString(`"@signature-params": `)
	b.WriteString(sp)
	return b.String(), nil
}
