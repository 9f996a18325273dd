package webbotauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"math/big"
)

// The algorithms of RFC 9421 §6.2.2 that are verified: ed25519 is the one
// Web Bot Auth requires; ecdsa-p256-sha256 and rsa-pss-sha512 are the
// other asymmetric ones signers use. rsa-v1_5-sha256 and the HMAC
// algorithms are left out on purpose: a shared secret proves nothing to a
// third party.
const (
	AlgEd25519   = "ed25519"
	AlgECDSAP256 = "ecdsa-p256-sha256"
	AlgRSAPSS512 = "rsa-pss-sha512"
)

// algForKey returns the algorithm a key implies, for a signature whose
// parameters name none (RFC 9421 §3.2: the verifier then decides from the
// key material).
func algForKey(pub crypto.PublicKey) string {
	switch pub.(type) {
	case ed25519.PublicKey:
		return AlgEd25519
	case *ecdsa.PublicKey:
		return AlgECDSAP256
	case *rsa.PublicKey:
		return AlgRSAPSS512
	}
	return ""
}

// supportedAlg reports whether alg is one of the algorithms verified here.
func supportedAlg(alg string) bool {
	return alg == AlgEd25519 || alg == AlgECDSAP256 || alg == AlgRSAPSS512
}

// verifySig verifies sig over base with pub under alg. It returns nil when
// the signature verifies, errBadSignature when it does not, and another
// error when the key does not fit the algorithm.
func verifySig(alg string, pub crypto.PublicKey, base []byte, sig []byte) error {
	switch alg {
	case AlgEd25519: // RFC 9421 §3.3.6
		k, ok := pub.(ed25519.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s with a %s key", alg, keyKind(pub))
		}
		if len(sig) != ed25519.SignatureSize || !ed25519.Verify(k, base, sig) {
			return errBadSignature
		}
		return nil
	case AlgECDSAP256: // RFC 9421 §3.3.4: r and s, 32 bytes each
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s with a %s key", alg, keyKind(pub))
		}
		if len(sig) != 64 {
			return errBadSignature
		}
		h := sha256.Sum256(base)
		r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
		if !ecdsa.Verify(k, h[:], r, s) {
			return errBadSignature
		}
		return nil
	case AlgRSAPSS512: // RFC 9421 §3.3.1: salt of 64 bytes
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s with a %s key", alg, keyKind(pub))
		}
		h := sha512.Sum512(base)
		if rsa.VerifyPSS(k, crypto.SHA512, h[:], sig, &rsa.PSSOptions{SaltLength: 64, Hash: crypto.SHA512}) != nil {
			return errBadSignature
		}
		return nil
	}
	return fmt.Errorf("algorithm %q is not supported", alg)
}

func keyKind(pub crypto.PublicKey) string {
	switch pub.(type) {
	case ed25519.PublicKey:
		return "Ed25519"
	case *ecdsa.PublicKey:
		return "P-256"
	case *rsa.PublicKey:
		return "RSA"
	}
	return fmt.Sprintf("%T", pub)
}
