package webbotauth

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/dunglas/httpsfv"
)

// Keys and thumbprints ported from the published texts. Each row names its
// source.
var (
	// RFC 9421 Appendix B.1.4, test-key-ed25519, as a JWK (its x is the
	// raw key of the RFC's PEM); the Web Bot Auth drafts use it too.
	testKeyEd25519 = JWK{Kty: "OKP", Crv: "Ed25519", X: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}
	// RFC 9421 Appendix B.1.3, test-key-ecc-p256, as a JWK
	// (remitly-oss/httpsig-go testdata/test-key-ecc-p256.jwk); B.2.4's
	// signature verifying with it confirms the conversion.
	testKeyECCP256 = JWK{Kty: "EC", Crv: "P-256", X: "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA", Y: "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0"}
	// RFC 9421 Appendix B.1.2, test-key-rsa-pss, public part, as the Web
	// Bot Auth test vectors give it
	// (cloudflare/web-bot-auth packages/web-bot-auth/test/test_data/web_bot_auth_architecture_v2.json).
	testKeyRSAPSS = JWK{Kty: "RSA", E: "AQAB", N: "r4tmm3r20Wd_PbqvP1s2-QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct-Lh1GH45x28Rw3Ry53mm-oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHqgDsznjPFmTOtCEcN2Z1FpWgchwuYLPL-Wokqltd11nqqzi-bJ9cvSKADYdUAAN5WUtzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4aOT9v6d-nb4bnNkQVklLQ3fVAvJm-xdDOp9LCNCN48V2pnDOkFV6-U9nV5oyc6XI2w"}
)

func TestThumbprints(t *testing.T) {
	for _, tc := range []struct {
		name, source string
		key          JWK
		want         string
	}{
		{"RFC7638_3.1_RSA", "RFC 7638 §3.1", JWK{Kty: "RSA", E: "AQAB", Kid: "2011-04-29", Alg: "RS256",
			N: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"},
			"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"},
		{"RFC8037_A.3_Ed25519", "RFC 8037 Appendix A.3", JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
			"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"},
		{"WBA_test_key_ed25519", "Web Bot Auth test vectors: keyid of test-key-ed25519", testKeyEd25519,
			"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"},
		{"WBA_test_key_rsa_pss", "Web Bot Auth test vectors: keyid of test-key-rsa-pss", testKeyRSAPSS,
			"oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA"},
		{"OpenAI_chatgpt.com_2025", "chatgpt.com's directory as quoted by blog.castle.io (kid is the thumbprint)",
			JWK{Kty: "OKP", Crv: "Ed25519", X: "7F_3jDlxaquwh291MiACkcS3Opq88NksyHiakzS-Y1g"},
			"otMqcjr17mGyruktGvJU8oojQTSMHlVm7uO-lrcqbdg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.key.Thumbprint()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s: thumbprint %s, want %s", tc.source, got, tc.want)
			}
			if _, err := tc.key.Public(); err != nil {
				t.Errorf("%s: %v", tc.source, err)
			}
		})
	}
}

func mustB64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func innerList(t *testing.T, sigInput, label string) httpsfv.InnerList {
	t.Helper()
	ps, err := parseSignatureInput(sigInput)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.label == label {
			return p.components
		}
	}
	t.Fatalf("no label %s", label)
	return httpsfv.InnerList{}
}

// TestRFC9421_B26_Ed25519 rebuilds the signature base of RFC 9421 Appendix
// B.2.6 (the test-request, "Signing a Request Using ed25519") and verifies
// its signature with test-key-ed25519 (B.1.4).
func TestRFC9421_B26_Ed25519(t *testing.T) {
	const sigInput = `sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	const sig = "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw=="
	const wantBase = `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	// The test-request of RFC 9421 Appendix B.2: POST /foo?param=Value&Pet=dog, Host example.com.
	m := &Message{Method: "POST", Authority: "example.com", Target: "/foo?param=Value&Pet=dog", Headers: map[string]string{
		"date": "Tue, 20 Apr 2021 02:07:55 GMT", "content-type": "application/json", "content-length": "18",
	}}
	base, err := buildBase(m, innerList(t, sigInput, "sig-b26"))
	if err != nil {
		t.Fatal(err)
	}
	if base != wantBase {
		t.Fatalf("base\n%s\nwant\n%s", base, wantBase)
	}
	pub, err := testKeyEd25519.Public()
	if err != nil {
		t.Fatal(err)
	}
	if err := verifySig(AlgEd25519, pub, []byte(base), mustB64(t, sig)); err != nil {
		t.Fatalf("B.2.6 signature: %v", err)
	}
	// One byte of the base changed: it must fail.
	if err := verifySig(AlgEd25519, pub, []byte(base+" "), mustB64(t, sig)); err != errBadSignature {
		t.Fatalf("a changed base verified: %v", err)
	}
}

// TestRFC9421_B24_ECDSA verifies RFC 9421 Appendix B.2.4 ("Signing a
// Response Using ecdsa-p256-sha256") with test-key-ecc-p256 (B.1.3). It is
// a response, so its base is taken as the RFC prints it.
func TestRFC9421_B24_ECDSA(t *testing.T) {
	const base = `"@status": 200
"content-type": application/json
"content-digest": sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:
"content-length": 23
"@signature-params": ("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"`
	const sig = "wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw=="
	pub, err := testKeyECCP256.Public()
	if err != nil {
		t.Fatal(err)
	}
	if err := verifySig(AlgECDSAP256, pub, []byte(base), mustB64(t, sig)); err != nil {
		t.Fatalf("B.2.4 signature: %v", err)
	}
	if err := verifySig(AlgECDSAP256, pub, []byte(base+"\n"), mustB64(t, sig)); err != errBadSignature {
		t.Fatalf("a changed base verified: %v", err)
	}
	// The signature base of the same parameters rebuilt from a request
	// cannot hold @status: the log does not have it for a request.
	_, err = buildBase(&Message{Method: "GET", Authority: "example.com", Target: "/"}, innerList(t, `sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"`, "sig-b24"))
	if err == nil {
		t.Fatal("@status rebuilt from a request")
	}
}

// The Web Bot Auth test vectors (draft-meunier-web-bot-auth-architecture
// Appendix A, as published with Cloudflare's implementation:
// cloudflare/web-bot-auth packages/web-bot-auth/test/test_data/web_bot_auth_architecture_v2.json):
// GET https://example.com/path/to/resource, created 1735689600.
var wbaVectors = []struct {
	name, key, sigInput, sig, agent string
}{
	{"rsa-pss-sha512 sig1", "rsa", `sig1=("@authority");created=1735689600;keyid="oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA";alg="rsa-pss-sha512";expires=4889289600;nonce="JojDFWJ90jf+gZhdKeTyJYsu1XvNPZSFAGhvYq5SuV3gneOEUAhq+xl792WGuD1W+Dr6NRmx+m+t06NsYnL4iA==";tag="web-bot-auth"`,
		`sig1=:hWPaj85MWQiRkzU4jnIKvdPQiDfMCPIoxOP8nZveNc3aFQ7r/UmXWCwGNImw588iRvTFey5TR3fVEgnXpcttlyK+u5pN831z9Wlr+IMNfub4uEM3SuO+SKFygJZyLG0pf7OAiRcU4C0gyx1BS/+z9ydQTRzDLr88wCkBBRqwGRrSi8HTwxkqg1jugobh93hcnU6gV8MK1n+VnhRprIgl2RQSO6q5cfbB4OS8C4t/8ndW0lYmP2SWzKZJXnpX5Wrj17PuLqnVW6MO8pJnLAMXNvxUdx32KHeq/cHFrzZazZsua3UOoP+k+niHwoQ8bBWj1Vi4mM1mYJK+fk366cCLsQ==:`, ""},
	{"rsa-pss-sha512 sig2 with signature-agent", "rsa", `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA";alg="rsa-pss-sha512";expires=4889289600;nonce="wcfPQPh7SzkvrIVvhD00vNk9PkxJNY2NVbYl2PVBB4zmUoluSwE7W6bPtF60QA3k8g06FU7PPCD+J58YofY1zg==";tag="web-bot-auth"`,
		`sig2=:gHzpLNeHaHIO19NaJH9YMW5dcVSi2s0wOMBr6p18vcofS106sfC4KBIS0/szPlBBd1vIcyQ88B6CTEWIhRAiVrb9zfX0mx1aG12CSGWcYkSirHeyTxhbuJvXd27ed6skWoy4PjXItq38936ivUQjfdIwXh1aX6HxkAC3vRnEdSNfntkLWeEuIQ5BLIOBGE39fSwg27Qjq6OVWYas/9/aFUr3HA34MXWYdp+//cvlEKDp3kRoLOw9ro0AOr6srHrTeEtxon2afcws1aZVSlPdd2fZSEIGmw9HAHLDCEkFTERu1gH2k/zIEqgy7CAYXI9E5slog0cLg/Vc6+f8gih33g==:`, `agent2="https://signature-agent.test"`},
	{"ed25519 sig1", "ed25519", `sig1=("@authority");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A==";tag="web-bot-auth"`,
		`sig1=:QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==:`, ""},
	{"ed25519 sig2 with signature-agent", "ed25519", `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
		`sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:`, `agent2="https://signature-agent.test"`},
}

// testKeys holds the test keys as the directory of
// https://signature-agent.test, served since 2025-01-01.
func testKeys(t testing.TB) *Keys {
	k := NewKeys()
	if notes := k.Add("signature-agent.test", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "test", JWKS{Keys: []JWK{testKeyEd25519, testKeyRSAPSS, testKeyECCP256}}); len(notes) > 0 {
		t.Fatal(notes)
	}
	return k
}

func wbaRequest(i int) *Request {
	v := wbaVectors[i]
	return &Request{
		Message:        Message{Method: "GET", Authority: "example.com", Target: "/path/to/resource", Scheme: "https"},
		Time:           time.Unix(1735689600+30, 0).UTC(),
		ClientIP:       "192.0.2.10",
		SignatureAgent: v.agent,
		SignatureInput: v.sigInput,
		Signature:      v.sig,
	}
}

func TestWebBotAuthVectors(t *testing.T) {
	for i, v := range wbaVectors {
		t.Run(v.name, func(t *testing.T) {
			ver := NewVerifier(testKeys(t), Options{})
			r := ver.Verify(wbaRequest(i))
			if r.Status != StatusValid {
				t.Fatalf("%+v, want valid", r)
			}
			if r.Signer != "https://signature-agent.test" || r.Tag != "web-bot-auth" {
				t.Errorf("signer %q tag %q", r.Signer, r.Tag)
			}
		})
	}
}

// The base of the draft's sig2 vector, as the draft prints it (the member
// of the dictionary field, RFC 9421 §2.1.2).
func TestWebBotAuthBase(t *testing.T) {
	v := wbaVectors[3]
	m := &Message{Method: "GET", Authority: "example.com", Target: "/path/to/resource", Headers: map[string]string{"signature-agent": v.agent}}
	base, err := buildBase(m, innerList(t, v.sigInput, "sig2"))
	if err != nil {
		t.Fatal(err)
	}
	want := `"@authority": example.com
"signature-agent";key="agent2": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`
	if base != want {
		t.Fatalf("base\n%s\nwant\n%s", base, want)
	}
}

// Derived components from the test-request of RFC 9421 Appendix B.2
// (POST /foo?param=Value&Pet=dog, Host example.com), by section.
func TestRFC9421_DerivedComponents(t *testing.T) {
	m := &Message{Method: "POST", Authority: "Example.com:443", Target: "/foo?param=Value&Pet=dog"}
	for _, tc := range []struct{ section, ident, want string }{
		{"§2.2.1", "@method", "POST"},
		{"§2.2.2", "@target-uri", "https://example.com/foo?param=Value&Pet=dog"},
		{"§2.2.3 (lower-cased, default port dropped)", "@authority", "example.com"},
		{"§2.2.4", "@scheme", "https"},
		{"§2.2.5", "@request-target", "/foo?param=Value&Pet=dog"},
		{"§2.2.6", "@path", "/foo"},
		{"§2.2.7", "@query", "?param=Value&Pet=dog"},
	} {
		v, err := m.componentValue(httpsfv.NewItem(tc.ident))
		if err != nil || v != tc.want {
			t.Errorf("%s %s = %q, %v; want %q", tc.section, tc.ident, v, err, tc.want)
		}
	}
	// §2.2.7: no query gives "?" alone.
	noq := &Message{Method: "GET", Authority: "example.com", Target: "/path", Scheme: "http"}
	if v, _ := noq.componentValue(httpsfv.NewItem("@query")); v != "?" {
		t.Errorf("@query without a query = %q, want ?", v)
	}
	if v, _ := noq.componentValue(httpsfv.NewItem("@target-uri")); v != "http://example.com/path" {
		t.Errorf("@target-uri over http = %q", v)
	}
}
