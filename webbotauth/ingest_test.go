package webbotauth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// The Web Bot Auth draft's Ed25519 vector with a Signature-Agent
// (cloudflare/web-bot-auth web_bot_auth_architecture_v2.json, sig2), as
// three servers would log it with the lines docs/inputs.md gives: the
// columns ingest builds verify, so nothing is lost between the log and the
// signature base.
const (
	vecAgent = `agent2="https://signature-agent.test"`
	vecInput = `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`
	vecSig   = `sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:`
)

func TestFromLogLines(t *testing.T) {
	nginxEsc := func(s string) string { return strings.ReplaceAll(s, `"`, `\x22`) }
	apacheEsc := func(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
	jsonEsc := func(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
	for _, tc := range []struct {
		name, layout, line string
	}{
		{"nginx log_format", `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $scheme $host "$http_signature_agent" "$http_signature_input" "$http_signature"`,
			`192.0.2.10 - - [01/Jan/2025:00:00:30 +0000] "GET /path/to/resource HTTP/1.1" 200 512 "-" "Mozilla/5.0" https example.com "` + nginxEsc(vecAgent) + `" "` + nginxEsc(vecInput) + `" "` + nginxEsc(vecSig) + `"`},
		{"Apache LogFormat", `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{Host}i" "%{Signature-Agent}i" "%{Signature-Input}i" "%{Signature}i"`,
			`192.0.2.10 - - [01/Jan/2025:00:00:30 +0000] "GET /path/to/resource HTTP/1.1" 200 512 "-" "Mozilla/5.0" "example.com" "` + apacheEsc(vecAgent) + `" "` + apacheEsc(vecInput) + `" "` + apacheEsc(vecSig) + `"`},
		{"Caddy JSON", "",
			`{"level":"info","ts":1735689630,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"192.0.2.10","proto":"HTTP/2.0","method":"GET","host":"example.com","uri":"/path/to/resource","headers":{"User-Agent":["Mozilla/5.0"],"Signature-Agent":["` + jsonEsc(vecAgent) + `"],"Signature-Input":["` + jsonEsc(vecInput) + `"],"Signature":["` + jsonEsc(vecSig) + `"]}},"status":200,"size":512}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var reqs []*webbotauth.Request
			_, err := ingest.Run(context.Background(), []string{"-"}, ingest.Options{
				Stdin: strings.NewReader(tc.line + "\n"), LogFormat: tc.layout, Workers: 1, Allocator: mem,
			}, func(rec arrow.RecordBatch) error {
				str := func(col, i int) string {
					c := rec.Column(col)
					if c.IsNull(i) {
						return ""
					}
					switch a := c.(type) {
					case *array.String:
						return a.Value(i)
					case *array.Dictionary:
						return a.Dictionary().(*array.String).Value(a.GetValueIndex(i))
					}
					t.Fatalf("column %d is %T", col, c)
					return ""
				}
				for i := range int(rec.NumRows()) {
					reqs = append(reqs, &webbotauth.Request{
						Message: webbotauth.Message{
							Method: str(ingest.ColMethod, i), Authority: str(ingest.ColHost, i),
							Target: str(ingest.ColTarget, i), Scheme: str(ingest.ColScheme, i),
						},
						Time:           time.UnixMicro(int64(rec.Column(ingest.ColTime).(*array.Timestamp).Value(i))),
						ClientIP:       str(ingest.ColClientIP, i),
						SignatureAgent: str(ingest.ColSignatureAgent, i),
						SignatureInput: str(ingest.ColSignatureInput, i),
						Signature:      str(ingest.ColSignature, i),
					})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 1 {
				t.Fatalf("%d rows", len(reqs))
			}
			keys := webbotauth.NewKeys()
			keys.Add("signature-agent.test", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "test",
				webbotauth.JWKS{Keys: []webbotauth.JWK{{Kty: "OKP", Crv: "Ed25519", X: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}}})
			r := webbotauth.NewVerifier(keys, webbotauth.Options{}).Verify(reqs[0])
			if r.Status != webbotauth.StatusValid {
				t.Fatalf("%+v from %+v", r, *reqs[0])
			}
		})
	}
}
