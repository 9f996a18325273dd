//go:build duckdb_arrow

package audit

import (
	"bytes"
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// TestSigPrecheckOnce: the check a parsing goroutine makes ahead
// (precheck) is the one the judge then asks for, so a signed request costs
// one verification; a header repeated on other requests costs none more
// (the cache per key, signature and base).
func TestSigPrecheckOnce(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize))
	keys := webbotauth.NewKeys()
	keys.Add("agent.test", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "test", webbotauth.JWKS{Keys: []webbotauth.JWK{webbotauth.PublicJWK(priv.Public().(ed25519.PublicKey))}})
	at := time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)
	agent, input, sig, err := webbotauth.Sign(priv, webbotauth.Message{Method: "GET", Authority: "www.example.com", Target: "/a"},
		webbotauth.SignOptions{Origin: "https://agent.test", Created: at, Expires: at.Add(time.Minute), Nonce: "n"})
	if err != nil {
		t.Fatal(err)
	}
	s := newSigJudge(keys, nil)
	row := &logfmt.Row{Time: at.UnixMicro(), Host: []byte("www.example.com"), Method: []byte("GET"), Target: []byte("/a"),
		SignatureAgent: []byte(agent), SignatureInput: []byte(input), Signature: []byte(sig)}
	s.precheck(row)
	s.precheck(row) // a retry with the same headers
	res := s.v.Verify(&webbotauth.Request{Message: webbotauth.Message{Method: "GET", Authority: "www.example.com", Target: "/a"},
		Time: at, ClientIP: "192.0.2.1", SignatureAgent: agent, SignatureInput: input, Signature: sig})
	if res.Status != webbotauth.StatusValid {
		t.Fatalf("outcome %s (%s), want valid", res.Status, res.Reason)
	}
	if st := s.v.Stats(); st.Verified != 1 || st.CacheHits != 2 {
		t.Errorf("%d signature checks computed, %d from the cache; want 1 and 2", st.Verified, st.CacheHits)
	}
}
