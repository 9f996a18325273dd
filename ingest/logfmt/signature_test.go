package logfmt

import (
	"testing"
)

// The headers of a signed request (Web Bot Auth,
// draft-meunier-web-bot-auth-architecture and RFC 9421 §4) are kept whole
// where a layout or a key names them. The values are those of the draft's
// test vector for the Ed25519 test key of RFC 9421 Appendix B.1.4, as
// published with Cloudflare's implementation
// (cloudflare/web-bot-auth packages/web-bot-auth/test/test_data/web_bot_auth_architecture_v2.json).
const (
	testSigAgent = `agent2="https://signature-agent.test"`
	testSigInput = `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`
	testSig      = `sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:`
)

// apacheQuote escapes v as Apache's mod_log_config writes a header: '"' and
// '\' preceded by a backslash.
func apacheQuote(v string) string {
	var b []byte
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, v[i])
	}
	return string(b)
}

func TestSignatureHeadersCustomApache(t *testing.T) {
	// The LogFormat line docs/inputs.md gives: combined plus the three headers.
	f, err := NewCustom(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{Host}i" "%{Signature-Agent}i" "%{Signature-Input}i" "%{Signature}i"`)
	if err != nil {
		t.Fatal(err)
	}
	const ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	const pre = `20.171.207.2 - - [01/Nov/2026:10:00:00 +0000] "GET /path/to/resource HTTP/1.1" 200 512 "-" "` + ua + `"`
	base := view{Time: "2026-11-01T10:00:00Z", Client: "20.171.207.2", Method: "GET", Target: "/path/to/resource", Proto: "HTTP/1.1", Status: 200, Bytes: 512, Agent: ua, Host: "example.com"}
	signed := base
	signed.SigAgent, signed.SigInput, signed.Sig = testSigAgent, testSigInput, testSig
	legacy := base
	legacy.SigAgent = `"https://chatgpt.com"`
	runCases(t, f.New(), []parseCase{
		{"signed, quotes escaped by Apache", pre + ` "example.com" "` + apacheQuote(testSigAgent) + `" "` + apacheQuote(testSigInput) + `" "` + testSig + `"`, signed, nil},
		{"unsigned", pre + ` "example.com" "-" "-" "-"`, base, nil},
		{"legacy bare-string Signature-Agent", pre + ` "example.com" "\"https://chatgpt.com\"" "-" "-"`, legacy, nil},
		{"headers missing from the line", pre, view{}, ErrFieldCount},
	})
}

func TestSignatureHeadersCustomNginx(t *testing.T) {
	// The log_format line docs/inputs.md gives (escape=default writes '"' as \x22).
	f, err := NewCustom(`log_format signed '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $scheme $host "$http_signature_agent" "$http_signature_input" "$http_signature"';`)
	if err != nil {
		t.Fatal(err)
	}
	esc := func(s string) string {
		var b []byte
		for i := 0; i < len(s); i++ {
			if s[i] == '"' {
				b = append(b, `\x22`...)
				continue
			}
			b = append(b, s[i])
		}
		return string(b)
	}
	const pre = `20.171.207.2 - - [01/Nov/2026:10:00:00 +0000] "GET /a?b=1 HTTP/2.0" 200 10 "-" "ChatGPT-User/1.0"`
	base := view{Time: "2026-11-01T10:00:00Z", Client: "20.171.207.2", Method: "GET", Target: "/a?b=1", Proto: "HTTP/2.0", Status: 200, Bytes: 10, Agent: "ChatGPT-User/1.0", Scheme: "https", Host: "www.example.org"}
	signed := base
	signed.SigAgent, signed.SigInput, signed.Sig = testSigAgent, testSigInput, testSig
	plain := base
	plain.Scheme = "http"
	runCases(t, f.New(), []parseCase{
		{"signed", pre + ` https www.example.org "` + esc(testSigAgent) + `" "` + esc(testSigInput) + `" "` + testSig + `"`, signed, nil},
		{"unsigned over http", pre + ` http www.example.org "-" "-" "-"`, plain, nil},
	})
}

func TestSignatureHeadersJSON(t *testing.T) {
	q := func(s string) string { // a JSON string
		var b []byte
		b = append(b, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return string(append(b, '"'))
	}
	base := view{Time: "2026-11-01T10:00:00Z", Client: "20.171.207.2", Method: "GET", Target: "/path/to/resource", Status: 200, Bytes: 512, Host: "example.com"}
	signed := base
	signed.SigAgent, signed.SigInput, signed.Sig = testSigAgent, testSigInput, testSig
	nginx := signed
	nginx.Scheme = "https"
	caddy := signed
	caddy.Proto = "HTTP/2.0"
	caddy.Agent = "Mozilla/5.0"
	joined := caddy
	joined.SigInput = testSigInput + `, sig3=("@authority");created=1`
	runCases(t, newJSONParser(jsonAuto), []parseCase{
		{"nginx escape=json http_ keys",
			`{"time_iso8601":"2026-11-01T10:00:00+00:00","remote_addr":"20.171.207.2","host":"example.com","scheme":"https","request_method":"GET","request_uri":"/path/to/resource","status":200,"body_bytes_sent":512,` +
				`"http_signature_agent":` + q(testSigAgent) + `,"http_signature_input":` + q(testSigInput) + `,"http_signature":` + q(testSig) + `}`, nginx, nil},
		{"plain keys",
			`{"time":"2026-11-01T10:00:00Z","remote_addr":"20.171.207.2","host":"example.com","method":"GET","uri":"/path/to/resource","status":200,"bytes":512,` +
				`"signature_agent":` + q(testSigAgent) + `,"signature_input":` + q(testSigInput) + `,"signature":` + q(testSig) + `}`, signed, nil},
		// Caddy's access log: request.headers holds every header as an
		// array of its lines (https://caddyserver.com/docs/caddyfile/directives/log).
		{"Caddy request.headers arrays",
			`{"level":"info","ts":1793527200,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"20.171.207.2","proto":"HTTP/2.0","method":"GET","host":"example.com","uri":"/path/to/resource","headers":{"User-Agent":["Mozilla/5.0"],` +
				`"Signature-Agent":[` + q(testSigAgent) + `],"Signature-Input":[` + q(testSigInput) + `],"Signature":[` + q(testSig) + `]}},"status":200,"size":512}`, caddy, nil},
		{"Caddy: two header lines are one list (RFC 9110 §5.3)",
			`{"ts":1793527200,"request":{"remote_ip":"20.171.207.2","proto":"HTTP/2.0","method":"GET","host":"example.com","uri":"/path/to/resource","headers":{"User-Agent":["Mozilla/5.0"],` +
				`"Signature-Agent":[` + q(testSigAgent) + `],"Signature-Input":[` + q(testSigInput) + `,"sig3=(\"@authority\");created=1"],"Signature":[` + q(testSig) + `]}},"status":200,"size":512}`, joined, nil},
		{"null and dash are absent",
			`{"time":"2026-11-01T10:00:00Z","remote_addr":"20.171.207.2","host":"example.com","method":"GET","uri":"/path/to/resource","status":200,"bytes":512,"signature_agent":null,"signature_input":"-","signature":""}`, base, nil},
	})

	m, err := ParseJSONMapping("signature_input=hdr.sig_in,signature=hdr.sig,signature_agent=hdr.agent,scheme=proto_scheme")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	mapped := signed
	mapped.Scheme = "http"
	runCases(t, f.New(), []parseCase{
		{"--json-fields",
			`{"time":"2026-11-01T10:00:00Z","remote_addr":"20.171.207.2","host":"example.com","method":"GET","uri":"/path/to/resource","status":200,"bytes":512,"proto_scheme":"http",` +
				`"hdr":{"agent":` + q(testSigAgent) + `,"sig_in":` + q(testSigInput) + `,"sig":` + q(testSig) + `}}`, mapped, nil},
	})
}
