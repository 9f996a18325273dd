package webbotauth_test

import (
	"fmt"
	"time"

	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// A signed request as a log keeps it, checked against the directory its
// signer published: the Web Bot Auth draft's Ed25519 test vector, whose
// key is RFC 9421's test-key-ed25519.
func ExampleVerifier_Verify() {
	keys := webbotauth.NewKeys()
	keys.Add("signature-agent.test", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "https://signature-agent.test/.well-known/http-message-signatures-directory",
		webbotauth.JWKS{Keys: []webbotauth.JWK{{Kty: "OKP", Crv: "Ed25519", X: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}}})
	v := webbotauth.NewVerifier(keys, webbotauth.Options{})
	req := &webbotauth.Request{
		Message:        webbotauth.Message{Method: "GET", Authority: "example.com", Target: "/path/to/resource"},
		Time:           time.Unix(1735689630, 0),
		ClientIP:       "192.0.2.10",
		SignatureAgent: `agent2="https://signature-agent.test"`,
		SignatureInput: `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
		Signature:      `sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:`,
	}
	r := v.Verify(req)
	fmt.Println(r.Status, r.Signer, r.KeyID)

	// The same headers logged for another host: not what was signed.
	req.Authority = "example.net"
	r = v.Verify(req)
	fmt.Println(r.Status)

	// The same headers from another address: a replay.
	req.Authority, req.ClientIP = "example.com", "198.51.100.7"
	r = v.Verify(req)
	fmt.Println(r.Status, "-", r.Reason)
	// Output:
	// valid https://signature-agent.test poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U
	// invalid
	// replayed - the same nonce came from 192.0.2.10 at 2025-01-01T00:00:30Z
}
