package webbotauth

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dunglas/httpsfv"
)

// Status is the outcome of a signed request (the signature_status column).
type Status string

// The outcomes. A request without signature headers has StatusUnsigned.
const (
	StatusUnsigned Status = ""
	// StatusValid: the signature verifies with a key the signer published,
	// and the request's time lies within created and expires (60 s skew).
	StatusValid Status = "valid"
	// StatusExpired: it verifies, but the request's time is outside
	// created..expires, or outside the key's own nbf..exp.
	StatusExpired Status = "expired"
	// StatusInvalid: it does not verify with the key it names.
	StatusInvalid Status = "invalid"
	// StatusUnknownKey: no known directory of the signer holds the key.
	StatusUnknownKey Status = "unknown_key"
	// StatusReplayed: it verifies, but its nonce (else the signature
	// itself) was seen before from another client address.
	StatusReplayed Status = "replayed"
	// StatusUnverifiable: the log does not hold what checking it needs (a
	// covered component, a parsable header) or the algorithm is not
	// supported. It says nothing against the request.
	StatusUnverifiable Status = "unverifiable"
)

// Request is one logged request with its signature headers.
type Request struct {
	Message
	// Time is the request's time from the log.
	Time time.Time
	// ClientIP is the client address, for replay detection; empty when
	// the log has none.
	ClientIP string
	// SignatureAgent, SignatureInput and Signature are the headers as
	// logged; empty when absent.
	SignatureAgent, SignatureInput, Signature string
}

// Result is the outcome of one request.
type Result struct {
	Status Status `json:"status"`
	// Reason says why, in words for the person reading the audit.
	Reason string `json:"reason,omitempty"`
	// Signer is the signer's origin ("https://chatgpt.com") when known.
	Signer string `json:"signer,omitempty"`
	// KeyID is the keyid of the signature (an RFC 7638 thumbprint).
	KeyID string `json:"key,omitempty"`
	// Label is the signature's label in Signature-Input ("sig1").
	Label string `json:"label,omitempty"`
	// Alg is the algorithm verified with.
	Alg string `json:"alg,omitempty"`
	// Tag is the tag parameter ("web-bot-auth").
	Tag string `json:"tag,omitempty"`
}

// Options tune a Verifier. The zero value gives the defaults.
type Options struct {
	// Skew is the clock skew allowed around created and expires; default
	// 60 s.
	Skew time.Duration
	// CacheEntries bounds the cache of verifications per key, signature
	// and base; default 65,536. When full it is emptied.
	CacheEntries int
	// ReplayEntries bounds the nonces and signatures remembered for
	// replay detection; default 100,000 (about 15 MB at most), the oldest
	// forgotten first.
	ReplayEntries int
	// ReplayPerAddress bounds those remembered from one client address;
	// default 1,000. Beyond it an address's new nonces are not remembered,
	// so that one client cannot push everyone else's out.
	ReplayPerAddress int
}

// Verifier verifies the signed requests of one audit. It is safe for
// concurrent use.
type Verifier struct {
	keys *Keys
	opt  Options

	mu     sync.Mutex
	cache  map[[32]byte]bool
	parsed map[headerKey]*parsedHeaders
	replay *replayTracker
	stats  Stats
}

// headerKey is the three signature headers of a request, for the cache of
// their parsed form: a log repeats a request's headers on every retry and
// every replay.
type headerKey struct{ agent, input, sig string }

// parsedHeaders is what the headers say, or why they cannot be read.
type parsedHeaders struct {
	p      signatureParams
	sig    []byte
	origin string
	host   string
	fail   string // the reason the headers cannot be used, "" when they can
}

// Stats counts the work of a Verifier.
type Stats struct {
	// Verified counts signature checks computed; CacheHits those answered
	// from the cache.
	Verified, CacheHits int64
}

// NewVerifier returns a Verifier that looks keys up in keys.
func NewVerifier(keys *Keys, opt Options) *Verifier {
	if opt.Skew == 0 {
		opt.Skew = 60 * time.Second
	}
	if opt.CacheEntries <= 0 {
		opt.CacheEntries = 1 << 16
	}
	if opt.ReplayEntries <= 0 {
		opt.ReplayEntries = 100_000
	}
	if opt.ReplayPerAddress <= 0 {
		opt.ReplayPerAddress = 1000
	}
	if keys == nil {
		keys = NewKeys()
	}
	return &Verifier{keys: keys, opt: opt, cache: map[[32]byte]bool{}, parsed: map[headerKey]*parsedHeaders{}, replay: newReplayTracker(opt.ReplayEntries, opt.ReplayPerAddress)}
}

// Stats returns the counts so far.
func (v *Verifier) Stats() Stats {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.stats
}

func unverifiable(r Result, format string, args ...any) Result {
	r.Status = StatusUnverifiable
	r.Reason = fmt.Sprintf(format, args...)
	return r
}

// Verify returns the outcome of one request. It never panics on what a log
// holds; every outcome but StatusUnsigned carries a Reason.
func (v *Verifier) Verify(req *Request) Result {
	var r Result
	if req.SignatureInput == "" && req.Signature == "" {
		return r
	}
	switch {
	case req.SignatureInput == "":
		return unverifiable(r, "the log has a Signature header but no Signature-Input")
	case req.Signature == "":
		return unverifiable(r, "the log has a Signature-Input header but no Signature")
	}
	for name, h := range map[string]string{"Signature-Input": req.SignatureInput, "Signature": req.Signature, "Signature-Agent": req.SignatureAgent} {
		if len(h) > maxHeaderBytes {
			return unverifiable(r, "the %s header is %d bytes long, more than the %d read", name, len(h), maxHeaderBytes)
		}
	}
	ph := v.parse(req)
	p := ph.p
	r.Label, r.KeyID, r.Tag, r.Alg, r.Signer = p.label, p.keyid, p.tag, p.alg, ph.origin
	if ph.fail != "" {
		return unverifiable(r, "%s", ph.fail)
	}
	sig, host := ph.sig, ph.host
	var k *key
	var kv *keyVersion
	if host != "" {
		var known bool
		k, kv, known = v.keys.lookup(host, p.keyid, req.Time)
		if !known {
			r.Status = StatusUnknownKey
			r.Reason = fmt.Sprintf("no key directory of %s is known (crawlaudit keys update, or --keys DIR)", r.Signer)
			return r
		}
	} else {
		host, k, kv = v.keys.lookupAny(p.keyid, req.Time)
		if k != nil {
			r.Signer = "https://" + host
		}
	}
	if k == nil {
		r.Status = StatusUnknownKey
		if r.Signer != "" {
			r.Reason = fmt.Sprintf("%s's key directory as of %s does not hold key %s", r.Signer, req.Time.UTC().Format(time.RFC3339), p.keyid)
		} else {
			r.Reason = fmt.Sprintf("no known key directory holds key %s, and the request names no signer", p.keyid)
		}
		return r
	}
	alg := p.alg
	if alg == "" {
		alg = algForKey(k.pub)
		r.Alg = alg
	}

	// Headers the base may cover: the Signature-Agent as logged, and any
	// the caller gave.
	msg := req.Message
	msg.signatureAgent = req.SignatureAgent
	base, err := buildBase(&msg, p.components)
	if err != nil {
		var ce *componentError
		if errors.As(err, &ce) && errors.Is(err, errMissing) {
			return unverifiable(r, "%v", err)
		}
		return unverifiable(r, "the signature base cannot be rebuilt: %v", err)
	}

	ok, err := v.check(k, alg, sig, base)
	if err != nil {
		return unverifiable(r, "%v", err)
	}
	if !ok && msg.Scheme == "" && coversScheme(p.components) {
		// The log does not say the scheme and https was assumed: a
		// signature that verifies over http says the request came over
		// http.
		msg.Scheme = "http"
		if b, err := buildBase(&msg, p.components); err == nil {
			ok, _ = v.check(k, alg, sig, b)
		}
	}
	if !ok && coversQuery(p.components) && !strings.Contains(msg.Target, "?") {
		// Logs that record $uri or %U keep no query string: a signature
		// over the query cannot be told from one the log cut.
		return unverifiable(r, "the signature covers the query and the logged target has none: the log may not keep query strings (log $request_uri or %%U%%q)")
	}
	if !ok {
		r.Status = StatusInvalid
		r.Reason = fmt.Sprintf("the signature does not verify with %s's key %s (directory of %s)", r.Signer, p.keyid, kv.at.Format(time.RFC3339))
		return r
	}

	// Times: the signature's created and expires, then the key's own
	// validity, both with the skew.
	t := req.Time
	skew := v.opt.Skew
	if p.hasCreated && t.Add(skew).Before(time.Unix(p.created, 0)) {
		r.Status = StatusExpired
		r.Reason = fmt.Sprintf("created %s, %s after the request", time.Unix(p.created, 0).UTC().Format(time.RFC3339), time.Unix(p.created, 0).Sub(t).Round(time.Second))
		return r
	}
	if p.hasExpires && t.Add(-skew).After(time.Unix(p.expires, 0)) {
		r.Status = StatusExpired
		r.Reason = fmt.Sprintf("expired %s, %s before the request", time.Unix(p.expires, 0).UTC().Format(time.RFC3339), t.Sub(time.Unix(p.expires, 0)).Round(time.Second))
		return r
	}
	if k.jwk.Nbf != 0 && t.Add(skew).Before(time.Unix(k.jwk.Nbf, 0)) || k.jwk.Exp != 0 && t.Add(-skew).After(time.Unix(k.jwk.Exp, 0)) {
		r.Status = StatusExpired
		r.Reason = fmt.Sprintf("key %s was published for %s to %s only", p.keyid, unixOr(k.jwk.Nbf, "any time"), unixOr(k.jwk.Exp, "any time"))
		return r
	}

	// Replays: the nonce, else the signature, from another address.
	id := "s\x00" + string(sig)
	if p.nonce != "" {
		id = "n\x00" + host + "\x00" + p.nonce
	}
	until := t.Add(skew)
	if p.hasExpires {
		until = time.Unix(p.expires, 0).Add(skew)
	}
	v.mu.Lock()
	firstAddr, firstAt, replayed := v.replay.see(id, req.ClientIP, t, until)
	v.mu.Unlock()
	if replayed {
		r.Status = StatusReplayed
		what := "signature"
		if p.nonce != "" {
			what = "nonce"
		}
		r.Reason = fmt.Sprintf("the same %s came from %s at %s", what, firstAddr, firstAt.UTC().Format(time.RFC3339))
		return r
	}
	r.Status = StatusValid
	return r
}

// Precheck computes the signature check of req as Verify makes it, and
// caches it, without deciding the outcome: a caller that must hand Verify
// the requests in their order (replays depend on it) can run the costly
// part on every core first, and Verify then finds it cached. It does
// nothing for a request Verify would call unverifiable or unknown_key.
func (v *Verifier) Precheck(req *Request) {
	if req.SignatureInput == "" || req.Signature == "" || len(req.SignatureInput) > maxHeaderBytes ||
		len(req.Signature) > maxHeaderBytes || len(req.SignatureAgent) > maxHeaderBytes {
		return
	}
	ph := v.parse(req)
	if ph.fail != "" {
		return
	}
	var k *key
	if ph.host != "" {
		k, _, _ = v.keys.lookup(ph.host, ph.p.keyid, req.Time)
	} else {
		_, k, _ = v.keys.lookupAny(ph.p.keyid, req.Time)
	}
	if k == nil {
		return
	}
	alg := ph.p.alg
	if alg == "" {
		alg = algForKey(k.pub)
	}
	msg := req.Message
	msg.signatureAgent = req.SignatureAgent
	if base, err := buildBase(&msg, ph.p.components); err == nil {
		v.check(k, alg, ph.sig, base)
	}
}

func unixOr(s int64, none string) string {
	if s == 0 {
		return none
	}
	return time.Unix(s, 0).UTC().Format(time.RFC3339)
}

// Bounds of the cache of parsed headers: real headers are a few hundred
// bytes, and nonces make most triples distinct, so the cache serves
// retries and replays; the bounds keep a hostile log's long headers from
// filling memory (at most about 8 MB).
const (
	parsedEntries  = 1024
	parsedMaxBytes = 2048
)

// parse reads the three headers, once per distinct triple.
func (v *Verifier) parse(req *Request) *parsedHeaders {
	if len(req.SignatureAgent)+len(req.SignatureInput)+len(req.Signature) > parsedMaxBytes {
		return parseHeaders(req)
	}
	hk := headerKey{req.SignatureAgent, req.SignatureInput, req.Signature}
	v.mu.Lock()
	ph, ok := v.parsed[hk]
	v.mu.Unlock()
	if ok {
		return ph
	}
	ph = parseHeaders(req)
	v.mu.Lock()
	if len(v.parsed) >= parsedEntries {
		clear(v.parsed)
	}
	v.parsed[hk] = ph
	v.mu.Unlock()
	return ph
}

func parseHeaders(req *Request) *parsedHeaders {
	ph := &parsedHeaders{}
	fail := func(format string, args ...any) *parsedHeaders {
		ph.fail = fmt.Sprintf(format, args...)
		return ph
	}
	inputs, err := parseSignatureInput(req.SignatureInput)
	if err != nil {
		return fail("%v", err)
	}
	sigs, err := parseSignature(req.Signature)
	if err != nil {
		return fail("%v", err)
	}
	p := pickSignature(inputs)
	ph.p = p
	sig, ok := sigs[p.label]
	if !ok {
		return fail("Signature has no member %q for the Signature-Input of that label", p.label)
	}
	ph.sig = sig
	if p.alg != "" && !supportedAlg(p.alg) {
		return fail("algorithm %q is not supported (ed25519, ecdsa-p256-sha256 and rsa-pss-sha512 are)", p.alg)
	}
	if p.keyid == "" {
		return fail("the signature names no keyid")
	}
	// The signer: the Signature-Agent member the signature covers, or the
	// one of its label, or the legacy single value.
	if req.SignatureAgent != "" {
		agent, err := parseSignatureAgent(req.SignatureAgent)
		if err != nil {
			return fail("%v", err)
		}
		u, ok := agent.member(agentKey(p.components), p.label)
		if !ok {
			return fail("Signature-Agent names no signer for signature %q", p.label)
		}
		origin, h, err := signerOrigin(u)
		if err != nil {
			return fail("%v", err)
		}
		ph.origin, ph.host = origin, h
	}
	return ph
}

// coversQuery reports whether the components include the query string.
func coversQuery(il httpsfv.InnerList) bool {
	for _, it := range il.Items {
		switch it.Value {
		case "@query", "@target-uri", "@request-target", "@query-param":
			return true
		}
	}
	return false
}

// coversScheme reports whether the components include the scheme.
func coversScheme(il httpsfv.InnerList) bool {
	for _, it := range il.Items {
		switch it.Value {
		case "@scheme", "@target-uri":
			return true
		}
	}
	return false
}

// pickSignature chooses the signature to verify: the first tagged
// web-bot-auth, else the first.
func pickSignature(in []signatureParams) signatureParams {
	for _, p := range in {
		if p.tag == "web-bot-auth" {
			return p
		}
	}
	return in[0]
}

// agentKey returns the key parameter of a covered "signature-agent"
// component (draft-meunier-http-message-signatures-directory-04:
// "signature-agent";key="sig1"), or "".
func agentKey(il httpsfv.InnerList) string {
	for _, it := range il.Items {
		if s, _ := it.Value.(string); s == "signature-agent" {
			if k, ok := it.Params.Get("key"); ok {
				ks, _ := k.(string)
				return ks
			}
		}
	}
	return ""
}

// check verifies sig over base with k, once per (key, algorithm, signature,
// base): a header repeated on many requests, or replayed, costs one
// verification.
func (v *Verifier) check(k *key, alg string, sig []byte, base string) (bool, error) {
	h := sha256.New()
	h.Write([]byte(k.thumb))
	h.Write([]byte{0})
	h.Write([]byte(alg))
	h.Write([]byte{0})
	h.Write(sig)
	h.Write([]byte{0})
	h.Write([]byte(base))
	var id [32]byte
	h.Sum(id[:0])
	v.mu.Lock()
	ok, hit := v.cache[id]
	if hit {
		v.stats.CacheHits++
	}
	v.mu.Unlock()
	if hit {
		return ok, nil
	}
	err := verifySig(alg, k.pub, []byte(base), sig)
	if err != nil && !errors.Is(err, errBadSignature) {
		return false, err
	}
	ok = err == nil
	v.mu.Lock()
	v.stats.Verified++
	if len(v.cache) >= v.opt.CacheEntries {
		clear(v.cache)
	}
	v.cache[id] = ok
	v.mu.Unlock()
	return ok, nil
}
