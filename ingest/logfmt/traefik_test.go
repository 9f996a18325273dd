package logfmt

import (
	"path/filepath"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

func TestTraefik(t *testing.T) {
	base := view{Time: "2021-12-08T13:59:39Z", Client: "172.17.0.1", Method: "GET", Target: "/index?toto=tata", Proto: "HTTP/1.1", Status: 200, Bytes: 352, Agent: "Nikto"}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	runCases(t, mustNew(t, "traefik"), []parseCase{
		{"crowdsec sample", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 242 "test@docker" "http://172.17.0.3:80" 1ms`, base, nil},
		{"router chain (Traefik v3)", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 300 "root@docker -> intermediate1@docker -> leaf@docker" "http://172.17.0.4:80" 25ms`, base, nil},
		{"no response: dash status and size", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" - - "-" "Nikto" 45640 "-" "-" 0ms`, with(func(v *view) { v.Status, v.Bytes = -1, -1 }), nil},
		{"basic-auth user, referer, IPv6", `2001:db8::1 - alice [08/Dec/2021:14:59:39 +0100] "GET /index?toto=tata HTTP/2.0" 200 352 "https://example.com/" "Nikto" 1 "web@file" "http://10.0.0.2:8080" 12345ms`, with(func(v *view) { v.Client, v.Proto, v.Referer = "2001:db8::1", "HTTP/2.0", "https://example.com/" }), nil},
		{"combined line", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto"`, view{}, ErrFieldCount},
		{"combined line with extra fields", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto" "-"`, view{}, ErrFieldCount},
		{"count not a number", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto" x "r" "u" 1ms`, view{}, ErrSyntax},
		{"duration without ms", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto" 1 "r" "u" 1`, view{}, ErrFieldCount},
		{"duration in seconds", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto" 1 "r" "u" 1.5s`, view{}, ErrFieldCount},
		{"field after duration", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET / HTTP/1.1" 200 352 "-" "Nikto" 1 "r" "u" 1ms x`, view{}, ErrFieldCount},
		{"dash request", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "-" 400 0 "-" "-" 1 "-" "-" 0ms`, view{}, ErrBadRequestLine},
		{"escaped quotes in agent and router", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nik\"to\"" 242 "te\"st" "http://172.17.0.3:80" 1ms`, with(func(v *view) { v.Agent = `Nik"to"` }), nil},
		{"cut inside request", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?to`, view{}, ErrTruncatedLine},
		{"cut inside referer", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "https://exa`, view{}, ErrTruncatedLine},
		{"cut inside agent: the bot Cla", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
		{"cut inside agent after an escaped quote", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nik\"`, view{}, ErrTruncatedLine},
		{"cut inside router", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 242 "test@do`, view{}, ErrTruncatedLine},
		{"cut inside server URL", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 242 "test@docker" "http://172.17`, view{}, ErrTruncatedLine},
		{"cut inside duration", `172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 242 "test@docker" "http://172.17.0.3:80" 1`, view{}, ErrFieldCount},
		{"Traefik JSON line", `{"ClientHost":"172.17.0.1","RequestMethod":"GET","RequestPath":"/"}`, view{}, ErrNotThisFormat},
	})
}

func TestTraefikSample(t *testing.T) {
	path := shareddata.Path(t, "format-samples/traefik/crowdsec-traefik_clf.log")
	parsed, rejected := tally(t, "traefik", mustNew(t, "traefik"), path)
	if parsed != 7 || len(rejected) != 0 {
		t.Errorf("%s: %d parsed, %d rejected %v; want all 7 lines parsed", filepath.Base(path), parsed, len(rejected), rejected)
	}
	// The Traefik JSON sample is not this format, line by line.
	path = shareddata.Path(t, "format-samples/traefik/crowdsec-traefik_json.log")
	parsed, rejected = tally(t, "traefik", mustNew(t, "traefik"), path)
	if parsed != 0 {
		t.Errorf("%s: %d JSON lines parsed as Traefik CLF", filepath.Base(path), parsed)
	}
	for n, err := range rejected {
		if err != ErrNotThisFormat {
			t.Errorf("%s:%d: %v, want %v", filepath.Base(path), n, err, ErrNotThisFormat)
		}
	}
}
