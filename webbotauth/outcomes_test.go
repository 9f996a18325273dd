package webbotauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// signer signs requests as a Web Bot Auth agent would, for the outcome
// tests: the base is rebuilt by buildBase, which the published vectors
// above check.
type signer struct {
	priv  ed25519.PrivateKey
	keyid string
	agent string // Signature-Agent header
}

func newSigner(t testing.TB, seed byte, origin string) *signer {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(bytesOf(seed, ed25519.SeedSize))
	j := JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))}
	id, err := j.Thumbprint()
	if err != nil {
		t.Fatal(err)
	}
	return &signer{priv: priv, keyid: id, agent: `sig1="` + origin + `"`}
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

func (s *signer) jwk() JWK {
	return JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(s.priv.Public().(ed25519.PublicKey))}
}

// sign returns req signed over components with the given parameters.
func (s *signer) sign(t testing.TB, req *Request, components string, created, expires int64, nonce string) *Request {
	t.Helper()
	params := fmt.Sprintf(`sig1=(%s);created=%d;keyid="%s";alg="ed25519";expires=%d`, components, created, s.keyid, expires)
	if nonce != "" {
		params += `;nonce="` + nonce + `"`
	}
	params += `;tag="web-bot-auth"`
	ps, err := parseSignatureInput(params)
	if err != nil {
		t.Fatal(err)
	}
	out := *req
	out.SignatureAgent = s.agent
	out.SignatureInput = params
	msg := out.Message
	msg.Headers = map[string]string{"signature-agent": s.agent}
	for k, v := range req.Headers {
		msg.Headers[k] = v
	}
	base, err := buildBase(&msg, ps[0].components)
	if err != nil {
		t.Fatal(err)
	}
	out.Signature = "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, []byte(base))) + ":"
	return &out
}

// withoutHeaders drops the headers the signer covered, as a log that
// never kept them.
func withoutHeaders(r *Request) *Request {
	r.Headers = nil
	return r
}

// withScheme sets the logged scheme ("" for a log without one).
func withScheme(r *Request, scheme string) *Request {
	r.Scheme = scheme
	return r
}

var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

func baseRequest() *Request {
	return &Request{
		Message:  Message{Method: "GET", Authority: "www.example.org", Target: "/docs/a?x=1"},
		Time:     t0,
		ClientIP: "20.171.207.2",
	}
}

const agentComponents = `"@authority" "@method" "@path" "@query" "signature-agent";key="sig1"`

// TestOutcomes: each outcome of §15 of the design (docs/signatures.md),
// from a request an agent signed and then altered the way a log or an
// impostor would.
func TestOutcomes(t *testing.T) {
	agent := newSigner(t, 1, "https://agent.example")
	other := newSigner(t, 2, "https://agent.example") // a key agent.example never published
	keys := NewKeys()
	keys.Add("agent.example", t0.Add(-30*24*time.Hour), "test", JWKS{Keys: []JWK{agent.jwk()}})
	created, expires := t0.Unix()-5, t0.Unix()+300
	good := agent.sign(t, baseRequest(), agentComponents, created, expires, "n-1")

	legacy := *agent
	legacy.agent = `"https://agent.example"` // the single string of the earlier drafts
	bare := *agent
	bare.agent = `https://agent.example` // the bare URL of the earliest signers
	alter := func(f func(r *Request)) *Request {
		r := *good
		f(&r)
		return &r
	}
	for _, tc := range []struct {
		name   string
		req    *Request
		status Status
		reason string // a substring of the reason
	}{
		{"valid", good, StatusValid, ""},
		{"unsigned", baseRequest(), StatusUnsigned, ""},
		{"valid: legacy string Signature-Agent", legacy.sign(t, baseRequest(), `"@authority" "@path" "signature-agent"`, created, expires, "n-4"), StatusValid, ""},
		{"valid: bare URL Signature-Agent", bare.sign(t, baseRequest(), `"@authority" "@path" "signature-agent"`, created, expires, "n-5"), StatusValid, ""},
		{"valid: no Signature-Agent, the key names its signer", alter(func(r *Request) {
			*r = *agent.sign(t, baseRequest(), `"@authority" "@path"`, created, expires, "n-6")
			r.SignatureAgent = ""
		}), StatusValid, ""},
		{"valid within 60 s of skew after expires", alter(func(r *Request) { r.Time = time.Unix(expires+59, 0) }), StatusValid, ""},
		{"expired: 61 s after expires", alter(func(r *Request) { r.Time = time.Unix(expires+61, 0) }), StatusExpired, "before the request"},
		{"expired: created 2 min after the request", alter(func(r *Request) { r.Time = time.Unix(created-120, 0) }), StatusExpired, "after the request"},
		{"invalid: another path than signed", alter(func(r *Request) { r.Target = "/admin?x=1" }), StatusInvalid, "does not verify"},
		{"unverifiable: a query signed, none logged (a log of $uri)", alter(func(r *Request) { r.Target = "/docs/a" }), StatusUnverifiable, "may not keep query strings"},
		{"valid: signed over http, the log has no scheme", withScheme(agent.sign(t, withScheme(baseRequest(), "http"), `"@target-uri" "@scheme"`, created, expires, "n-7"), ""), StatusValid, ""},
		{"invalid: signed over http, the log says https", withScheme(agent.sign(t, withScheme(baseRequest(), "http"), `"@target-uri" "@scheme"`, created, expires, "n-8"), "https"), StatusInvalid, "does not verify"},
		{"invalid: another query than signed", alter(func(r *Request) { r.Target = "/docs/a?x=2" }), StatusInvalid, "does not verify"},
		{"invalid: another host than signed", alter(func(r *Request) { r.Authority = "evil.example" }), StatusInvalid, "does not verify"},
		{"unknown_key: the signer named with a port", alter(func(r *Request) { r.SignatureAgent = `sig1="https://agent.example:443"` }), StatusUnknownKey, "no key directory of https://agent.example:443"},
		{"unknown_key: a key the signer never published", other.sign(t, baseRequest(), agentComponents, created, expires, "n-2"), StatusUnknownKey, "does not hold key"},
		{"unknown_key: an unknown signer", alter(func(r *Request) { r.SignatureAgent = `sig1="https://nobody.example"` }), StatusUnknownKey, "no key directory of https://nobody.example"},
		{"unverifiable: malformed Signature-Input", alter(func(r *Request) { r.SignatureInput = `sig1=("@authority";created=1` }), StatusUnverifiable, "not a structured-field dictionary"},
		{"unverifiable: malformed Signature", alter(func(r *Request) { r.Signature = "sig1=not-bytes" }), StatusUnverifiable, "not a byte sequence"},
		{"unverifiable: malformed Signature-Agent", alter(func(r *Request) { r.SignatureAgent = "sig1=(((" }), StatusUnverifiable, "Signature-Agent"},
		{"unverifiable: the log has no host", alter(func(r *Request) { r.Authority = "" }), StatusUnverifiable, "no host"},
		{"unverifiable: content-digest covered, not logged", withoutHeaders(agent.sign(t, &Request{Message: Message{Method: "POST", Authority: "www.example.org", Target: "/f", Headers: map[string]string{"content-digest": "sha-256=:x:"}}, Time: t0, ClientIP: "20.171.207.2"}, `"@authority" "content-digest"`, created, expires, "n-3")), StatusUnverifiable, "content-digest"},
		{"unverifiable: unknown algorithm", alter(func(r *Request) {
			r.SignatureInput = strings.Replace(r.SignatureInput, `alg="ed25519"`, `alg="hmac-sha256"`, 1)
		}), StatusUnverifiable, `algorithm "hmac-sha256" is not supported`},
		{"unverifiable: Signature without Signature-Input", alter(func(r *Request) { r.SignatureInput = "" }), StatusUnverifiable, "no Signature-Input"},
		{"unverifiable: no Signature for the label", alter(func(r *Request) { r.Signature = strings.Replace(r.Signature, "sig1=", "sig9=", 1) }), StatusUnverifiable, `no member "sig1"`},
		{"unverifiable: a 64 KiB header", alter(func(r *Request) { r.SignatureInput += ";x=\"" + strings.Repeat("a", 64<<10) + "\"" }), StatusUnverifiable, "bytes long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewVerifier(keys, Options{})
			r := v.Verify(tc.req)
			if r.Status != tc.status || !strings.Contains(r.Reason, tc.reason) {
				t.Fatalf("got %q (%s), want %q with %q", r.Status, r.Reason, tc.status, tc.reason)
			}
			if r.Status != StatusUnsigned && r.Status != StatusValid && r.Reason == "" {
				t.Errorf("outcome %s without a reason", r.Status)
			}
		})
	}
}

// TestReplay: the same nonce from another client address is a replay; the
// same address again (a retry) is not; without a nonce the signature
// itself is compared; a log without addresses never calls one a replay.
func TestReplay(t *testing.T) {
	agent := newSigner(t, 1, "https://agent.example")
	keys := NewKeys()
	keys.Add("agent.example", t0.Add(-time.Hour), "test", JWKS{Keys: []JWK{agent.jwk()}})
	v := NewVerifier(keys, Options{})
	req := agent.sign(t, baseRequest(), agentComponents, t0.Unix(), t0.Unix()+300, "nonce-A")
	at := func(r *Request, ip string, d time.Duration) *Request {
		c := *r
		c.ClientIP, c.Time = ip, t0.Add(d)
		return &c
	}
	steps := []struct {
		req  *Request
		want Status
	}{
		{at(req, "20.171.207.2", 0), StatusValid},
		{at(req, "20.171.207.2", time.Second), StatusValid},       // a retry from the same address
		{at(req, "198.51.100.66", 2*time.Second), StatusReplayed}, // the same nonce elsewhere
		{at(req, "", 3*time.Second), StatusValid},                 // no address: never a replay
	}
	noNonce := agent.sign(t, baseRequest(), agentComponents, t0.Unix(), t0.Unix()+300, "")
	steps = append(steps,
		struct {
			req  *Request
			want Status
		}{at(noNonce, "20.171.207.3", 0), StatusValid},
		struct {
			req  *Request
			want Status
		}{at(noNonce, "203.0.113.9", time.Second), StatusReplayed},
	)
	for i, s := range steps {
		r := v.Verify(s.req)
		if r.Status != s.want {
			t.Fatalf("step %d from %q: %s (%s), want %s", i, s.req.ClientIP, r.Status, r.Reason, s.want)
		}
		if r.Status == StatusReplayed && !strings.Contains(r.Reason, "20.171.207.") {
			t.Errorf("replay reason %q does not name the first address", r.Reason)
		}
	}
}

// TestReplayBounded: 10,000 distinct nonces from one address are verified,
// but the tracker keeps at most ReplayPerAddress of them, and a replay from
// another address of a remembered one is still caught.
func TestReplayBounded(t *testing.T) {
	agent := newSigner(t, 1, "https://agent.example")
	keys := NewKeys()
	keys.Add("agent.example", t0.Add(-time.Hour), "test", JWKS{Keys: []JWK{agent.jwk()}})
	v := NewVerifier(keys, Options{})
	first := agent.sign(t, baseRequest(), agentComponents, t0.Unix(), t0.Unix()+3600, "nonce-0")
	for i := range 10_000 {
		req := agent.sign(t, baseRequest(), agentComponents, t0.Unix(), t0.Unix()+3600, fmt.Sprintf("nonce-%d", i))
		if r := v.Verify(req); r.Status != StatusValid {
			t.Fatalf("nonce %d: %s (%s)", i, r.Status, r.Reason)
		}
	}
	if n := v.replay.size(); n > 1000 {
		t.Fatalf("the tracker holds %d nonces from one address, want at most 1000", n)
	}
	if v.replay.unrecorded != 9000 {
		t.Errorf("unrecorded %d, want 9000", v.replay.unrecorded)
	}
	c := *first
	c.ClientIP = "198.51.100.66"
	if r := v.Verify(&c); r.Status != StatusReplayed {
		t.Fatalf("a remembered nonce from another address: %s", r.Status)
	}
	// Many addresses: the total stays bounded too.
	small := NewVerifier(keys, Options{ReplayEntries: 500})
	for i := range 2000 {
		req := agent.sign(t, baseRequest(), agentComponents, t0.Unix(), t0.Unix()+3600, fmt.Sprintf("m-%d", i))
		req.ClientIP = fmt.Sprintf("10.0.%d.%d", i/256, i%256)
		small.Verify(req)
	}
	if n := small.replay.size(); n > 500 {
		t.Fatalf("the tracker holds %d entries, want at most 500", n)
	}
}

// TestCache: a header repeated on many requests is verified once.
func TestCache(t *testing.T) {
	v := NewVerifier(testKeys(t), Options{})
	for range 5 {
		if r := v.Verify(wbaRequest(3)); r.Status != StatusValid {
			t.Fatal(r)
		}
	}
	if s := v.Stats(); s.Verified != 1 || s.CacheHits != 4 {
		t.Fatalf("stats %+v, want 1 verification and 4 cache hits", s)
	}
	// The same signature over another base is verified again, and fails:
	// the cache is per key, signature and base.
	r := wbaRequest(3)
	r.Authority = "example.net"
	if got := v.Verify(r); got.Status != StatusInvalid {
		t.Fatalf("same signature, other host: %s", got.Status)
	}
	if s := v.Stats(); s.Verified != 2 {
		t.Fatalf("stats %+v", s)
	}
}

// TestKeysAsOf: a key is known at t when the newest snapshot at or before
// t, or the first after t, holds it; a rotated-out key is unknown once a
// later snapshot dropped it and none after t holds it.
func TestKeysAsOf(t *testing.T) {
	a, b := newSigner(t, 1, "https://agent.example"), newSigner(t, 2, "https://agent.example")
	keys := NewKeys()
	d1, d2 := t0.Add(-48*time.Hour), t0.Add(-24*time.Hour)
	keys.Add("agent.example", d1, "one", JWKS{Keys: []JWK{a.jwk()}})
	keys.Add("agent.example", d2, "two", JWKS{Keys: []JWK{b.jwk()}})
	for _, tc := range []struct {
		at    time.Time
		key   *signer
		known bool
	}{
		{d1.Add(-time.Hour), a, true}, // before the first snapshot: the first
		{d1.Add(time.Hour), a, true},
		{d2.Add(time.Hour), a, false}, // rotated out
		{d2.Add(time.Hour), b, true},
		{d1.Add(time.Hour), b, true},   // added between the snapshots: the one after holds it
		{d1.Add(-time.Hour), b, false}, // two snapshots before it appeared
	} {
		k, _, _ := keys.lookup("agent.example", tc.key.keyid, tc.at)
		if (k != nil) != tc.known {
			t.Errorf("key %s at %s: known %v, want %v", tc.key.keyid[:8], tc.at, k != nil, tc.known)
		}
	}
}

// TestLoadDir: the --keys layout; a file that is not a JWKS, or not named
// by an instant, is skipped with a note and never stops the others.
func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	agent := newSigner(t, 1, "https://agent.example")
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jwk := agent.jwk()
	write("agent.example/2026-10-01T00:00:00Z.json", fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":%q,"use":"sig"},{"kty":"oct","k":"c2VjcmV0"}],"purpose":"ai"}`, jwk.X))
	write("agent.example/2026-10-02T00:00:00Z.json", `<html>Not found</html>`)
	write("agent.example/latest.json", `{"keys":[]}`)
	write("other.example/2026-10-01T00:00:00Z.json", `{"key":"x"}`)
	k, notes, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := k.Hosts(); fmt.Sprint(got) != "[agent.example]" {
		t.Errorf("hosts %v", got)
	}
	var all []string
	for _, n := range notes {
		rel, _ := filepath.Rel(dir, n.File)
		all = append(all, filepath.ToSlash(rel)+": "+n.Reason)
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"2026-10-02T00:00:00Z.json: not a JWKS", "latest.json: the file name is not an RFC 3339 instant", `key 2: key type "oct" is not supported`, "other.example/2026-10-01T00:00:00Z.json: not a JWKS"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if kk, _, _ := k.lookup("agent.example", agent.keyid, t0); kk == nil {
		t.Error("the good key was not loaded")
	}
	if _, _, err := LoadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory loaded")
	}
}

// TestConcurrent: one Verifier shared by the workers of an audit.
func TestConcurrent(t *testing.T) {
	v := NewVerifier(testKeys(t), Options{})
	done := make(chan Status, 8)
	for w := range 8 {
		go func() {
			var last Status
			for i := range 200 {
				r := wbaRequest((w + i) % len(wbaVectors))
				last = v.Verify(r).Status
			}
			done <- last
		}()
	}
	for range 8 {
		if s := <-done; s != StatusValid {
			t.Errorf("a worker ended with %s", s)
		}
	}
}
