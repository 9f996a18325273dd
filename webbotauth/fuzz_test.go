package webbotauth

import (
	"strings"
	"testing"
	"time"
)

// FuzzVerify feeds the three headers and the logged components to the
// whole verification: it must never panic, and every outcome but
// unsigned must carry a reason.
func FuzzVerify(f *testing.F) {
	for _, v := range wbaVectors {
		f.Add(v.agent, v.sigInput, v.sig, "example.com", "/path/to/resource")
	}
	f.Add(`"https://chatgpt.com"`, `sig1=("@authority" "@path");created=1;keyid="x"`, `sig1=:AAAA:`, "a.example", "/?q")
	f.Add(`sig1=("x"`, `sig1=(`, `sig1=:`, "", "")
	f.Add("", `a=();b=?0, c=1.5;d=@1659578233, e=%"caf%c3%a9"`, `a=:YQ==:`, "h", "/")
	keys := testKeys(f)
	f.Fuzz(func(t *testing.T, agent, input, sig, host, target string) {
		v := NewVerifier(keys, Options{})
		r := v.Verify(&Request{
			Message:        Message{Method: "GET", Authority: host, Target: target, Headers: map[string]string{"user-agent": "x"}},
			Time:           time.Unix(1735689630, 0),
			ClientIP:       "192.0.2.1",
			SignatureAgent: agent, SignatureInput: input, Signature: sig,
		})
		if r.Status != StatusUnsigned && r.Reason == "" && r.Status != StatusValid {
			t.Fatalf("%s without a reason", r.Status)
		}
	})
}

// FuzzBuildBase rebuilds the base of any parsable Signature-Input from any
// logged components: never a panic, and a base that holds no line break
// inside a value (each line is one component).
func FuzzBuildBase(f *testing.F) {
	for _, v := range wbaVectors {
		f.Add(v.sigInput, v.agent, "GET", "example.com", "/path/to/resource", "https")
	}
	f.Add(`sig=("@method" "@target-uri" "@query" "@scheme" "@request-target" "@path");created=1`, "", "POST", "Example.COM:443", "https://example.com/a?b#c", "")
	f.Add(`sig=("signature-agent";sf "signature-agent";key="a" "@status" "x";bs)`, `a="https://a.example", b=1`, "GET", "h:80", "", "http")
	f.Fuzz(func(t *testing.T, input, agent, method, host, target, scheme string) {
		ps, err := parseSignatureInput(input)
		if err != nil {
			return
		}
		m := &Message{Method: method, Authority: host, Target: target, Scheme: scheme, Headers: map[string]string{"signature-agent": agent}}
		for _, p := range ps {
			base, err := buildBase(m, p.components)
			if err != nil {
				continue
			}
			lines := strings.Split(base, "\n")
			if len(lines) != len(p.components.Items)+1 {
				t.Fatalf("base of %d lines for %d components:\n%s", len(lines), len(p.components.Items), base)
			}
			if !strings.HasPrefix(lines[len(lines)-1], `"@signature-params": (`) {
				t.Fatalf("last line %q", lines[len(lines)-1])
			}
		}
	})
}
