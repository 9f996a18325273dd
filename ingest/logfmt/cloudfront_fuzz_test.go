package logfmt

import "testing"

func FuzzParseCloudFront(f *testing.F) {
	f.Add([]byte("#Version: 1.0\n" + cfFieldsDirective + "\n" + cfLine(nil)))
	f.Add([]byte(cfLine(map[int]string{10: "Mozilla/5.0%2520(x)", 9: "https://a/%zz", 15: "-"})))
	f.Add([]byte("#Fields: date time c-ip cs-method x-host-header cs-uri-stem cs-uri-query sc-status sc-bytes cs(User-Agent)\n2026-10-25\t01:30:00\t203.0.113.7\tGET\twww.example.com\t/p\tx=1\t200\t5120\tcurl/8.5.0"))
	f.Add([]byte(cfLine(map[int]string{19: "198.51.100.9,%2010.0.0.5%"})))
	f.Fuzz(func(t *testing.T, data []byte) { xFuzzLines(t, "cloudfront", data) })
}
