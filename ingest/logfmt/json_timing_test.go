package logfmt

import (
	"fmt"
	"testing"
)

func benchJSONLines(n int, style string) [][]byte {
	lines := make([][]byte, n)
	for i := range lines {
		target := benchPaths[i%len(benchPaths)]
		if q := benchQuery[i%len(benchQuery)]; q != "" {
			target += "?" + q
		}
		ip, ua, st := benchIPs[i%len(benchIPs)], benchAgents[i%len(benchAgents)], benchStatus[i%len(benchStatus)]
		ts := 1792891800 + i*7
		switch style {
		case "nginx":
			lines[i] = []byte(fmt.Sprintf(`{"time_local":"25/Oct/2026:%02d:%02d:%02d +0200","remote_addr":"%s","request":"GET %s HTTP/1.1","status":"%d","body_bytes_sent":"%d","http_referer":"https://www.example.com/","http_user_agent":"%s","host":"www.example.com","request_time":"0.012"}`,
				i%24, i%60, (i*7)%60, ip, target, st, 100+i*37%90000, ua))
		case "caddy":
			lines[i] = []byte(fmt.Sprintf(`{"level":"info","ts":%d.%06d,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"10.0.0.2","remote_port":"44790","client_ip":"%s","proto":"HTTP/2.0","method":"GET","host":"www.example.com","uri":"%s","headers":{"Accept":["*/*"],"Accept-Encoding":["gzip, br"],"User-Agent":["%s"],"X-Forwarded-For":["%s"]},"tls":{"resumed":false,"version":772,"cipher_suite":4865,"proto":"h2","server_name":"www.example.com"}},"bytes_read":0,"user_id":"","duration":0.000724332,"size":%d,"status":%d,"resp_headers":{"Server":["Caddy"],"Content-Type":["text/html; charset=utf-8"],"Cache-Control":["max-age=62, public"]}}`,
				ts, i%1000000, ip, target, ua, ip, 100+i*37%90000, st))
		}
	}
	return lines
}

func BenchmarkParseJSONL(b *testing.B) {
	for _, style := range []string{"nginx", "caddy"} {
		b.Run(style, func(b *testing.B) { benchParse(b, "jsonl", nil, benchJSONLines(1000, style)) })
	}
}
