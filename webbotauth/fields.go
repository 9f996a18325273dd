package webbotauth

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/dunglas/httpsfv"
)

// maxHeaderBytes bounds a signature header this package parses: a value
// longer than this is no signature a signer sends (nginx's default buffer
// for a request header line is 8 KiB), and parsing it would let one log
// line cost more than many requests.
const maxHeaderBytes = 16 << 10

// signatureParams are the parameters of one member of Signature-Input
// (RFC 9421 §2.3) that verification reads.
type signatureParams struct {
	label      string
	components httpsfv.InnerList
	created    int64 // 0 when absent
	expires    int64 // 0 when absent
	hasCreated bool
	hasExpires bool
	keyid      string
	alg        string
	nonce      string
	tag        string
}

// parseSignatureInput parses a Signature-Input field (an RFC 9651
// dictionary of inner lists, RFC 9421 §4.1) into its members in order.
func parseSignatureInput(v string) ([]signatureParams, error) {
	d, err := httpsfv.UnmarshalDictionary([]string{v})
	if err != nil {
		return nil, fmt.Errorf("the Signature-Input header is not a structured-field dictionary: %v", err)
	}
	var out []signatureParams
	for _, label := range d.Names() {
		m, _ := d.Get(label)
		il, ok := m.(httpsfv.InnerList)
		if !ok {
			return nil, fmt.Errorf("the Signature-Input header's member %q is not an inner list of components", label)
		}
		p := signatureParams{label: label, components: il}
		for _, name := range il.Params.Names() {
			val, _ := il.Params.Get(name)
			var bad bool
			switch name {
			case "created":
				p.created, bad = asInt(val)
				p.hasCreated = true
			case "expires":
				p.expires, bad = asInt(val)
				p.hasExpires = true
			case "keyid":
				p.keyid, bad = asString(val)
			case "alg":
				p.alg, bad = asString(val)
			case "nonce":
				p.nonce, bad = asString(val)
			case "tag":
				p.tag, bad = asString(val)
			}
			if bad {
				return nil, fmt.Errorf("the Signature-Input header's member %q: parameter %s has the wrong type", label, name)
			}
		}
		for _, it := range il.Items {
			if _, ok := it.Value.(string); !ok {
				return nil, fmt.Errorf("the Signature-Input header's member %q: a component identifier is not a string", label)
			}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the Signature-Input header is empty")
	}
	return out, nil
}

func asInt(v any) (int64, bool) {
	n, ok := v.(int64)
	return n, !ok
}

func asString(v any) (string, bool) {
	s, ok := v.(string)
	return s, !ok
}

// parseSignature parses a Signature field (an RFC 9651 dictionary of byte
// sequences, RFC 9421 §4.2).
func parseSignature(v string) (map[string][]byte, error) {
	d, err := httpsfv.UnmarshalDictionary([]string{v})
	if err != nil {
		return nil, fmt.Errorf("the Signature header is not a structured-field dictionary: %v", err)
	}
	out := map[string][]byte{}
	for _, label := range d.Names() {
		m, _ := d.Get(label)
		it, ok := m.(httpsfv.Item)
		if !ok {
			return nil, fmt.Errorf("the Signature header's member %q is not a byte sequence", label)
		}
		b, ok := it.Value.([]byte)
		if !ok {
			return nil, fmt.Errorf("the Signature header's member %q is not a byte sequence", label)
		}
		out[label] = b
	}
	return out, nil
}

// signatureAgent is a parsed Signature-Agent field: an RFC 9651 dictionary
// of strings (draft-meunier-http-message-signatures-directory-04 and
// later: sig1="https://chatgpt.com"), or the legacy single string
// ("https://chatgpt.com"), or, from the earliest signers, the bare URL.
type signatureAgent struct {
	dict   *httpsfv.Dictionary // nil for the legacy forms
	legacy string
}

func parseSignatureAgent(v string) (signatureAgent, error) {
	if d, err := httpsfv.UnmarshalDictionary([]string{v}); err == nil && len(d.Names()) > 0 {
		return signatureAgent{dict: d}, nil
	}
	if it, err := httpsfv.UnmarshalItem([]string{v}); err == nil {
		if s, ok := it.Value.(string); ok {
			return signatureAgent{legacy: s}, nil
		}
	}
	t := strings.TrimSpace(v)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">")
	if strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "http://") {
		return signatureAgent{legacy: t}, nil
	}
	return signatureAgent{}, fmt.Errorf("the Signature-Agent header is neither a structured-field dictionary nor a string")
}

// member returns the URL the agent names for the signature labelled label
// whose components point at key (empty when they do not).
func (a signatureAgent) member(key, label string) (string, bool) {
	if a.dict == nil {
		return a.legacy, a.legacy != ""
	}
	pick := func(name string) (string, bool) {
		m, ok := a.dict.Get(name)
		if !ok {
			return "", false
		}
		it, ok := m.(httpsfv.Item)
		if !ok {
			return "", false
		}
		s, ok := it.Value.(string)
		return s, ok
	}
	if key != "" {
		return pick(key)
	}
	if s, ok := pick(label); ok {
		return s, true
	}
	if names := a.dict.Names(); len(names) == 1 {
		return pick(names[0])
	}
	return "", false
}

// signerOrigin returns the origin ("https://chatgpt.com") and host
// ("chatgpt.com") of a Signature-Agent URL: the directory is at
// {origin}/.well-known/http-message-signatures-directory.
func signerOrigin(raw string) (origin, host string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "", "", fmt.Errorf("the Signature-Agent header %q is not an https URL", raw)
	}
	host = strings.ToLower(u.Host)
	return strings.ToLower(u.Scheme) + "://" + host, host, nil
}
