package webbotauth

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSignVerifies: what Sign makes, Verify accepts with the key's
// directory, and rejects once the logged path differs from the signed one.
func TestSignVerifies(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytesOf(7, ed25519.SeedSize))
	keys := NewKeys()
	keys.Add("agent.test", t0.Add(-time.Hour), "test", JWKS{Keys: []JWK{PublicJWK(priv.Public().(ed25519.PublicKey))}})
	msg := Message{Method: "GET", Authority: "www.example.org", Target: "/a?b=1"}
	agent, input, sig, err := Sign(priv, msg, SignOptions{Origin: "https://agent.test", Created: t0, Expires: t0.Add(5 * time.Minute), Nonce: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(keys, Options{})
	req := &Request{Message: msg, Time: t0.Add(time.Second), ClientIP: "192.0.2.1", SignatureAgent: agent, SignatureInput: input, Signature: sig}
	if r := v.Verify(req); r.Status != StatusValid || r.Signer != "https://agent.test" {
		t.Fatalf("signed request: %+v, want valid from https://agent.test", r)
	}
	req.Target = "/other"
	if r := v.Verify(req); r.Status != StatusInvalid {
		t.Fatalf("altered path: %+v, want invalid", r)
	}
	if _, _, _, err := Sign(nil, msg, SignOptions{}); err == nil {
		t.Fatal("Sign without a key: no error")
	}
}

func TestLoadSigners(t *testing.T) {
	dir := t.TempDir()
	if s, err := LoadSigners(dir); err != nil || s != nil {
		t.Fatalf("no signers.json: %v, %v; want none, no error", s, err)
	}
	os.WriteFile(filepath.Join(dir, SignersFile), []byte(`{"signers":[{"origin":"https://Agent.test/","operator":"Test","agent":"TestAgent","source":"test"}]}`), 0o644)
	s, err := LoadSigners(dir)
	if err != nil || len(s) != 1 || s[0].Origin != "https://agent.test" {
		t.Fatalf("LoadSigners = %v, %v", s, err)
	}
	tab, err := NewSignerTable(s)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := tab.Lookup("https://agent.test"); !ok || r.Operator != "Test" {
		t.Errorf("Lookup(agent.test) = %v, %v", r, ok)
	}
	if r, ok := tab.Lookup("https://chatgpt.com"); !ok || r.Operator != "OpenAI" {
		t.Errorf("the built-in row is lost: %v, %v", r, ok)
	}
	for _, bad := range []string{`[1,2]`, `{"signers":[{"origin":"ftp://x","operator":"X"}]}`, `{"signers":[{"origin":"https://x"}]}`} {
		os.WriteFile(filepath.Join(dir, SignersFile), []byte(bad), 0o644)
		if _, err := LoadSigners(dir); err == nil {
			t.Errorf("LoadSigners(%s): no error", bad)
		}
	}
}
