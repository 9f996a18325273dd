package webbotauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The built-in snapshot holds chatgpt.com's key as published, with its
// source; the signer table names OpenAI's agent.
func TestBuiltinSnapshot(t *testing.T) {
	keys, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	k, v, known := keys.lookup("chatgpt.com", "otMqcjr17mGyruktGvJU8oojQTSMHlVm7uO-lrcqbdg", time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
	if !known || k == nil {
		t.Fatal("chatgpt.com's 2025 key is not in the snapshot")
	}
	if v.source != "https://chatgpt.com"+DirectoryPath {
		t.Errorf("source %q", v.source)
	}
	f, err := BuiltinSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Signers {
		for _, v := range s.Versions {
			if v.Source == "" || v.At.IsZero() {
				t.Errorf("%s: a version without source or date", s.Host)
			}
			if v.Via != "" && v.Instant == "" {
				t.Errorf("%s %s: copied from a publication but the instant is not explained", s.Host, v.At)
			}
		}
	}
	s, ok := SignerFor("https://chatgpt.com/")
	if !ok || s.Operator != "OpenAI" || s.Agent != "ChatGPT agent" || !strings.HasPrefix(s.Source, "https://help.openai.com/") {
		t.Errorf("signer table row %+v", s)
	}
	// Every signer of the table has an origin the verifier can read.
	all, _ := Signers()
	for _, s := range all {
		if _, _, err := signerOrigin(s.Origin); err != nil || s.Source == "" {
			t.Errorf("signer %+v: %v", s, err)
		}
	}
}

// A ChatGPT agent request signed after the published key's exp is expired,
// not valid, even though the signature would verify: the key's own
// validity bounds it. (The signature cannot be made here without OpenAI's
// private key, so this checks the rule on a key of our own with the same
// shape.)
func TestKeyValidityBounds(t *testing.T) {
	agent := newSigner(t, 3, "https://agent.example")
	j := agent.jwk()
	j.Nbf, j.Exp = t0.Add(-time.Hour).Unix(), t0.Add(time.Hour).Unix()
	keys := NewKeys()
	keys.Add("agent.example", t0.Add(-2*time.Hour), "test", JWKS{Keys: []JWK{j}})
	later := baseRequest()
	later.Time = t0.Add(2 * time.Hour)
	req := agent.sign(t, later, agentComponents, later.Time.Unix(), later.Time.Unix()+60, "k-1")
	if r := NewVerifier(keys, Options{}).Verify(req); r.Status != StatusExpired || !strings.Contains(r.Reason, "published for") {
		t.Fatalf("%s (%s), want expired by the key's exp", r.Status, r.Reason)
	}
}

// TestUpdate runs `keys update` against a directory served on 127.0.0.1:
// written, then unchanged, then a rotation written beside it; a page that
// is not a JWKS is refused and a 404 fails, neither stopping the others.
func TestUpdate(t *testing.T) {
	a, b := newSigner(t, 1, "https://chatgpt.com"), newSigner(t, 2, "https://chatgpt.com")
	var body atomic.Value
	body.Store(fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":%q,"use":"sig"}],"purpose":"ai"}`, a.jwk().X))
	var gotAccept atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != DirectoryPath {
			http.NotFound(w, r)
			return
		}
		gotAccept.Store(r.Header.Get("Accept"))
		w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
		fmt.Fprint(w, body.Load().(string))
	}))
	defer srv.Close()
	dir := t.TempDir()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	opt := UpdateOptions{Hosts: []string{"chatgpt.com"}, BaseURL: srv.URL, Now: func() time.Time { return now }}
	run := func() UpdateResult {
		t.Helper()
		res, err := Update(context.Background(), srv.Client(), dir, opt)
		if err != nil || len(res) != 1 {
			t.Fatalf("%v %v", res, err)
		}
		return res[0]
	}
	r := run()
	if r.Err != nil || r.File == "" || r.Keys != 1 {
		t.Fatalf("first update %+v", r)
	}
	if !strings.HasSuffix(r.File, "chatgpt.com/2026-11-01T12:00:00Z.json") {
		t.Errorf("file %s", r.File)
	}
	if !strings.Contains(gotAccept.Load().(string), "application/http-message-signatures-directory+json") {
		t.Errorf("Accept %q", gotAccept.Load())
	}
	now = now.Add(24 * time.Hour)
	if r := run(); !r.Unchanged || r.File != "" {
		t.Fatalf("same keys: %+v", r)
	}
	body.Store(fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":%q}]}`, b.jwk().X))
	now = now.Add(24 * time.Hour)
	if r := run(); r.File == "" {
		t.Fatalf("rotated keys not written: %+v", r)
	}
	keys, notes, err := LoadDir(dir)
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	if v := keys.Versions("chatgpt.com"); len(v) != 2 {
		t.Fatalf("versions %+v", v)
	}
	if k, _, _ := keys.lookup("chatgpt.com", a.keyid, time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)); k == nil {
		t.Error("the first key is not known on its day")
	}
	if k, _, _ := keys.lookup("chatgpt.com", a.keyid, now.Add(time.Hour)); k != nil {
		t.Error("the rotated-out key is still known")
	}

	body.Store(`<html>maintenance</html>`)
	now = now.Add(time.Hour)
	if r := run(); !errors.Is(r.Err, ErrRefused) || r.File != "" {
		t.Fatalf("not a JWKS: %+v", r)
	}
	body.Store(`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`)
	if r := run(); !errors.Is(r.Err, ErrRefused) || len(r.Notes) != 1 {
		t.Fatalf("no usable key: %+v", r)
	}
	// A host that is not a name is refused before any request; a 404 fails.
	body.Store(fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":%q}]}`, a.jwk().X))
	srv404 := httptest.NewServer(http.NotFoundHandler())
	defer srv404.Close()
	res, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Hosts: []string{"../escape"}, BaseURL: srv.URL})
	if err != nil || len(res) != 1 || !errors.Is(res[0].Err, ErrRefused) {
		t.Fatalf("a host with a slash: %+v %v", res, err)
	}
	res, _ = Update(context.Background(), srv404.Client(), dir, UpdateOptions{Hosts: []string{"gone.example"}, BaseURL: srv404.URL})
	if len(res) != 1 || res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "404") {
		t.Fatalf("404: %+v", res)
	}
}

// TestBuiltinChatGPT: a request that names ChatGPT agent's signer and its
// published key, but whose signature is not OpenAI's, is invalid against
// the built-in snapshot; the same with a key OpenAI never published is an
// unknown key, which says nothing against it.
func TestBuiltinChatGPT(t *testing.T) {
	keys, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(keys, Options{})
	forged := &Request{
		Message:        Message{Method: "GET", Authority: "www.example.org", Target: "/"},
		Time:           time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
		ClientIP:       "198.51.100.66",
		SignatureAgent: `sig1="https://chatgpt.com"`,
		SignatureInput: `sig1=("@authority" "@method" "@path" "signature-agent";key="sig1");created=1748779195;expires=1748779255;keyid="otMqcjr17mGyruktGvJU8oojQTSMHlVm7uO-lrcqbdg";alg="ed25519";nonce="x";tag="web-bot-auth"`,
		Signature:      "sig1=:" + strings.Repeat("A", 86) + "==:",
	}
	r := v.Verify(forged)
	if r.Status != StatusInvalid || r.Signer != "https://chatgpt.com" {
		t.Fatalf("forged: %+v", r)
	}
	if s, _ := SignerFor(r.Signer); s.Operator != "OpenAI" {
		t.Errorf("signer %q is not OpenAI's", r.Signer)
	}
	unknown := *forged
	unknown.SignatureInput = strings.Replace(forged.SignatureInput, "otMqcjr17mGyruktGvJU8oojQTSMHlVm7uO-lrcqbdg", "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U", 1)
	if r := v.Verify(&unknown); r.Status != StatusUnknownKey {
		t.Fatalf("a key chatgpt.com never published: %+v", r)
	}
}
