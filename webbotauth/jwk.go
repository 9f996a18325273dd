package webbotauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
)

// JWK is a public JSON Web Key (RFC 7517) as a key directory serves it.
// Private members, when a directory wrongly holds them, are ignored.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
	Kid string `json:"kid,omitempty"`
	Alg string `json:"alg,omitempty"`
	Use string `json:"use,omitempty"`
	// Nbf and Exp bound the key's validity in seconds since the epoch, as
	// the directory draft (draft-meunier-http-message-signatures-directory)
	// lets a signer publish them; 0 when absent.
	Nbf int64 `json:"nbf,omitempty"`
	Exp int64 `json:"exp,omitempty"`
}

// JWKS is a JSON Web Key Set, the body of a signer's
// /.well-known/http-message-signatures-directory.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// ErrNotJWKS is returned for a key directory that is not a JWKS.
var ErrNotJWKS = errors.New("not a JWKS (a JSON object with a \"keys\" array)")

// ParseJWKS parses a key directory. It fails for anything that is not a JSON
// object with a "keys" array; keys it cannot use are kept (Public says why
// each cannot be used).
func ParseJWKS(b []byte) (JWKS, error) {
	var raw struct {
		Keys *[]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return JWKS{}, fmt.Errorf("%w: %v", ErrNotJWKS, err)
	}
	if raw.Keys == nil {
		return JWKS{}, ErrNotJWKS
	}
	var s JWKS
	for i, k := range *raw.Keys {
		var j JWK
		if err := json.Unmarshal(k, &j); err != nil {
			return JWKS{}, fmt.Errorf("%w: key %d: %v", ErrNotJWKS, i+1, err)
		}
		s.Keys = append(s.Keys, j)
	}
	return s, nil
}

func b64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(s)
}

// Thumbprint returns the key's JWK thumbprint (RFC 7638 §3) with SHA-256,
// base64url-encoded without padding: the keyid Web Bot Auth signers use.
// The required members of each key type are serialised in lexicographic
// order with no whitespace (§3.2; for OKP, RFC 8037 §2).
func (k JWK) Thumbprint() (string, error) {
	var canon []byte
	var err error
	switch k.Kty {
	case "OKP":
		canon, err = json.Marshal(struct {
			Crv string `json:"crv"`
			Kty string `json:"kty"`
			X   string `json:"x"`
		}{k.Crv, k.Kty, k.X})
	case "EC":
		canon, err = json.Marshal(struct {
			Crv string `json:"crv"`
			Kty string `json:"kty"`
			X   string `json:"x"`
			Y   string `json:"y"`
		}{k.Crv, k.Kty, k.X, k.Y})
	case "RSA":
		canon, err = json.Marshal(struct {
			E   string `json:"e"`
			Kty string `json:"kty"`
			N   string `json:"n"`
		}{k.E, k.Kty, k.N})
	default:
		return "", fmt.Errorf("key type %q has no thumbprint here (want OKP, EC or RSA)", k.Kty)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// Public returns the key as a Go public key: ed25519.PublicKey,
// *ecdsa.PublicKey (P-256) or *rsa.PublicKey.
func (k JWK) Public() (crypto.PublicKey, error) {
	switch k.Kty {
	case "OKP":
		if k.Crv != "Ed25519" {
			return nil, fmt.Errorf("OKP curve %q is not supported (want Ed25519)", k.Crv)
		}
		x, err := b64(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("Ed25519 key: x is not 32 bytes of base64url")
		}
		return ed25519.PublicKey(x), nil
	case "EC":
		if k.Crv != "P-256" {
			return nil, fmt.Errorf("EC curve %q is not supported (want P-256)", k.Crv)
		}
		x, err1 := b64(k.X)
		y, err2 := b64(k.Y)
		if err1 != nil || err2 != nil || len(x) != 32 || len(y) != 32 {
			return nil, fmt.Errorf("P-256 key: x and y are not 32 bytes of base64url each")
		}
		// The uncompressed SEC 1 point; ecdsa.ParseUncompressedPublicKey
		// checks that it lies on the curve.
		pt := append(append([]byte{4}, x...), y...)
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pt)
		if err != nil {
			return nil, fmt.Errorf("P-256 key: %v", err)
		}
		return pub, nil
	case "RSA":
		n, err1 := b64(k.N)
		e, err2 := b64(k.E)
		if err1 != nil || err2 != nil || len(n) == 0 || len(e) == 0 || len(e) > 4 {
			return nil, fmt.Errorf("RSA key: n or e is not base64url")
		}
		if len(n)*8 < 2048 {
			return nil, fmt.Errorf("RSA key of %d bits is too short (want 2048 or more)", len(n)*8)
		}
		ev := int(new(big.Int).SetBytes(e).Int64())
		if ev < 3 || ev%2 == 0 {
			return nil, fmt.Errorf("RSA key: bad exponent %d", ev)
		}
		return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: ev}, nil
	}
	return nil, fmt.Errorf("key type %q is not supported (want OKP, EC or RSA)", k.Kty)
}
