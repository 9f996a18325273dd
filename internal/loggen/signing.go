package loggen

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	botstable "github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// Signing signs a share of the crawlers' requests as Web Bot Auth agents
// do (webbotauth.Sign: ed25519, a fresh nonce, five minutes of validity),
// each operator with a test key of its own under the origin
// https://<operator>.signer.test, for the months that measure what
// verifying signatures costs. Impostors and scripts never sign. WriteKeys
// writes the keys and the signer rows as a --keys directory, so that the
// audit knows the test signers. The same share and month give the same
// headers.
type Signing struct {
	every, n int
	signers  map[string]*testSigner // by operator
}

type testSigner struct {
	origin string
	priv   ed25519.PrivateKey
}

// NewSigning signs about share (0 to 1) of the crawlers' requests: one in
// round(1/share).
func NewSigning(share float64) *Signing {
	every := 0
	if share > 0 {
		every = max(1, int(1/share+0.5))
	}
	return &Signing{every: every, signers: map[string]*testSigner{}}
}

// Sign adds the signature headers to r when r is a crawler's request whose
// turn it is. Call it on every request, in order.
func (s *Signing) Sign(r *Request) error {
	if s.every == 0 || r.Operator == "" || r.Bot == "" {
		return nil
	}
	if c, ok := botstable.Lookup(r.Bot); !ok || c.Operator == "" {
		return nil // a script or a library: nobody signs for it
	}
	s.n++
	if s.n%s.every != 0 {
		return nil
	}
	sg := s.signers[r.Operator]
	if sg == nil {
		seed := sha256.Sum256([]byte("loggen test signer " + r.Operator))
		sg = &testSigner{origin: "https://" + slug(r.Operator) + ".signer.test", priv: ed25519.NewKeyFromSeed(seed[:ed25519.SeedSize])}
		s.signers[r.Operator] = sg
	}
	created := time.Unix(r.Unix-1, 0)
	var err error
	r.SignatureAgent, r.SignatureInput, r.Signature, err = webbotauth.Sign(sg.priv,
		webbotauth.Message{Method: r.Method, Authority: r.Host, Target: string(r.Target)},
		webbotauth.SignOptions{Origin: sg.origin, Created: created, Expires: created.Add(5 * time.Minute), Nonce: "n" + strconv.Itoa(s.n)})
	return err
}

// Signed returns how many requests Sign signed.
func (s *Signing) Signed() int {
	if s.every == 0 {
		return 0
	}
	return s.n / s.every
}

// WriteKeys writes the test signers as a --keys directory:
// DIR/<signer host>/2000-01-01T00:00:00Z.json (one key each) and
// DIR/signers.json, whose rows name each signer's operator.
func (s *Signing) WriteKeys(dir string) error {
	type row struct {
		Origin   string `json:"origin"`
		Operator string `json:"operator"`
		Agent    string `json:"agent"`
		Source   string `json:"source"`
	}
	var rows []row
	for op, sg := range s.signers {
		host := strings.TrimPrefix(sg.origin, "https://")
		if err := os.MkdirAll(filepath.Join(dir, host), 0o755); err != nil {
			return err
		}
		set, err := json.Marshal(webbotauth.JWKS{Keys: []webbotauth.JWK{webbotauth.PublicJWK(sg.priv.Public().(ed25519.PublicKey))}})
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, host, "2000-01-01T00:00:00Z.json"), set, 0o644); err != nil {
			return err
		}
		rows = append(rows, row{Origin: sg.origin, Operator: op, Source: "crawlaudit gen: a test signer"})
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].Origin < rows[b].Origin })
	b, err := json.MarshalIndent(map[string]any{"signers": rows}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, webbotauth.SignersFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the test signers: %w", err)
	}
	return nil
}

// slug returns an operator's name as a DNS label: lower-case letters and
// digits, other runs of characters as one '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
