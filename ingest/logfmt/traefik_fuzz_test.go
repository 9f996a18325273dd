package logfmt

import "testing"

func FuzzParseTraefik(f *testing.F) {
	fuzzFormat(f, "traefik", `\`, append([]string{
		`172.17.0.1 - - [08/Dec/2021:13:59:39 +0000] "GET /index?toto=tata HTTP/1.1" 200 352 "-" "Nikto" 242 "test@docker" "http://172.17.0.3:80" 1ms`,
		`172.17.1.1 - - [28/Sep/2022:13:38:04 +0000] "GET /mobileadmin/home.cs HTTP/1.1" - - "-" "Mozilla/5.00 (Nikto/2.1.5) (Evasions:None) (Test:006607)" 45640 "-" "-" 0ms`,
		`172.17.1.3 - - [24/Nov/2024:13:40:15 +0000] "GET /api/users HTTP/1.1" 200 450 "-" "curl/7.68.0" 300 "root@docker -> leaf@docker" "http://172.17.0.4:80" 25ms`,
	}, clfSeeds...))
}
