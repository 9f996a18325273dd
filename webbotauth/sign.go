package webbotauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SignOptions are the parameters of a signature made by Sign.
type SignOptions struct {
	// Origin is the signer's origin ("https://chatgpt.com"), sent as the
	// Signature-Agent.
	Origin string
	// Created and Expires bound the signature.
	Created, Expires time.Time
	// Nonce is the nonce parameter; empty: none.
	Nonce string
}

// SignedComponents are the components Sign covers, those of the Web Bot
// Auth architecture draft's examples plus the method and path, all of
// which an access log keeps.
const SignedComponents = `"@authority" "@method" "@path" "signature-agent";key="sig1"`

// Sign signs msg with priv as a Web Bot Auth agent does (ed25519, tag
// web-bot-auth, the components of SignedComponents), and returns the three
// headers a log would keep. It makes the signed requests of generated logs
// and tests; the base is the one Verify rebuilds.
func Sign(priv ed25519.PrivateKey, msg Message, opt SignOptions) (agent, input, signature string, err error) {
	if len(priv) != ed25519.PrivateKeySize {
		return "", "", "", errors.New("webbotauth: Sign needs an ed25519 private key")
	}
	keyid, err := PublicJWK(priv.Public().(ed25519.PublicKey)).Thumbprint()
	if err != nil {
		return "", "", "", err
	}
	agent = `sig1="` + opt.Origin + `"`
	input = fmt.Sprintf(`sig1=(%s);created=%d;keyid="%s";alg="ed25519";expires=%d`, SignedComponents, opt.Created.Unix(), keyid, opt.Expires.Unix())
	if opt.Nonce != "" {
		input += `;nonce="` + opt.Nonce + `"`
	}
	input += `;tag="web-bot-auth"`
	ps, err := parseSignatureInput(input)
	if err != nil {
		return "", "", "", err
	}
	msg.signatureAgent = agent
	base, err := buildBase(&msg, ps[0].components)
	if err != nil {
		return "", "", "", err
	}
	signature = "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base))) + ":"
	return agent, input, signature, nil
}

// PublicJWK returns the JWK of an ed25519 public key, as a key directory
// publishes it.
func PublicJWK(pub ed25519.PublicKey) JWK {
	return JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(pub)}
}

// SignersFile is the name of the file of a --keys directory that adds rows
// to the signer table: {"signers": [{"origin", "operator", "agent",
// "source"}]}, the shape of the built-in signers.json.
const SignersFile = "signers.json"

// LoadSigners reads DIR/signers.json of a --keys directory, the signers it
// adds to the built-in table (its rows replace built-in ones of the same
// origin). A directory without the file adds none.
func LoadSigners(dir string) ([]Signer, error) {
	path := filepath.Join(dir, SignersFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	var table struct {
		Signers []Signer `json:"signers"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		return nil, fmt.Errorf("%s is not a signer table (want {\"signers\": [{\"origin\", \"operator\", \"agent\", \"source\"}]}): %w", path, err)
	}
	for i, s := range table.Signers {
		if _, _, err := signerOrigin(s.Origin); err != nil || s.Operator == "" {
			return nil, fmt.Errorf("%s: signer %d: want an https origin and an operator", path, i+1)
		}
		table.Signers[i].Origin = strings.TrimSuffix(strings.ToLower(s.Origin), "/")
	}
	return table.Signers, nil
}

// SignerTable answers which operator and agent a signer's origin stands
// for: the built-in table, with the rows of a --keys directory in place of
// those of the same origin.
type SignerTable struct {
	rows map[string]Signer
}

// NewSignerTable returns the built-in signer table with extra's rows added.
func NewSignerTable(extra []Signer) (*SignerTable, error) {
	builtin, err := Signers()
	if err != nil {
		return nil, err
	}
	t := &SignerTable{rows: map[string]Signer{}}
	for _, s := range append(append([]Signer(nil), builtin...), extra...) {
		t.rows[strings.TrimSuffix(strings.ToLower(s.Origin), "/")] = s
	}
	return t, nil
}

// Lookup returns the row of origin, as Result.Signer gives it.
func (t *SignerTable) Lookup(origin string) (Signer, bool) {
	if t == nil {
		return Signer{}, false
	}
	s, ok := t.rows[strings.TrimSuffix(strings.ToLower(origin), "/")]
	return s, ok
}
