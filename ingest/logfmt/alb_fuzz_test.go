package logfmt

import "testing"

func FuzzParseALB(f *testing.F) {
	f.Add([]byte(albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/private/page?x=1 HTTP/1.1", bingUA)))
	f.Add([]byte(albLine("h2", "[2001:db8::7]:44740", "-", "0", "GET https://u@[2001:db8::1]:443 HTTP/2.0", `a\"b" c`)))
	f.Add([]byte(albLine("http", "203.0.113.7:1", "400", "0", "- http://www.example.com:80- -", "-")))
	f.Add([]byte(`2026-10-25T01:30:00.000000Z my-loadbalancer 203.0.113.7:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 5120 "GET http://h:80/ HTTP/1.1" "ua" - -`))
	f.Add([]byte(albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/p HTTP/1.1", "ua")[:420]))
	f.Fuzz(func(t *testing.T, data []byte) {
		xFuzzLines(t, "alb", data)
		// albCutAfter, which looks at the last quoted field, agrees with
		// following every quote, after each space of the line.
		for i := range data {
			if data[i] != ' ' {
				continue
			}
			if got, want := albCutAfter(data, i), albCutForward(data, i); got != want {
				t.Fatalf("albCutAfter(%q, %d) = %v, following the quotes says %v", data, i, got, want)
			}
		}
		if albCutAfter(data, len(data)) {
			t.Fatalf("albCutAfter(%q) at the end of the line is true", data)
		}
	})
}
