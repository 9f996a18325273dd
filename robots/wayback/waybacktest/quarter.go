package waybacktest

// Quarter returns the captures of www.example.com/robots.txt over a quarter
// (August to mid-November 2026) as the Wayback Machine holds a busy site's:
// the scheme and "www." varying from capture to capture, repeats of each
// content, a redirect, a server error, a revisit record, two 404s in a row
// and a return to an earlier content. v0 is live first, v1 from
// 2026-09-15T00:00:00Z, v2 from 2026-10-10T12:00:00Z and v3 from
// 2026-10-20T00:00:00Z (the instants of the sample month's versions), then
// the file is gone (404) from 2026-11-03T12:00:00Z and v1 is back on
// 2026-11-12T08:30:00Z.
//
// Rebuilt, it makes six versions (v0, v1, v2, v3, empty, v1) from four
// distinct bodies; the redirect and the server error make none.
func Quarter(v0, v1, v2, v3 string) []Capture {
	return []Capture{
		{Timestamp: "20260802093015", Original: "http://example.com:80/robots.txt", Status: "200", Body: v0},
		{Timestamp: "20260819141203", Original: "https://www.example.com/robots.txt", Status: "200", Body: v0},
		{Timestamp: "20260906220510", Original: "http://www.example.com/robots.txt", Status: "302"},
		{Timestamp: "20260915000000", Original: "https://www.example.com/robots.txt", Status: "200", Body: v1},
		{Timestamp: "20260923081122", Original: "http://example.com/robots.txt", Status: "200", Body: v1},
		{Timestamp: "20261004173344", Original: "https://www.example.com/robots.txt", Status: "503", Body: "<html><body>Service Unavailable</body></html>"},
		{Timestamp: "20261010120000", Original: "https://www.example.com/robots.txt", Status: "200", Body: v2},
		{Timestamp: "20261014050505", Original: "https://www.example.com/robots.txt", Status: "200", Body: v2},
		{Timestamp: "20261016000000", Original: "http://www.example.com/robots.txt", Status: "-", Digest: Digest(v2)},
		{Timestamp: "20261020000000", Original: "https://www.example.com/robots.txt", Status: "200", Body: v3},
		{Timestamp: "20261103120000", Original: "https://www.example.com/robots.txt", Status: "404", Body: "<html><body>Not Found</body></html>"},
		{Timestamp: "20261105120000", Original: "http://www.example.com/robots.txt", Status: "404", Body: "<html><body>Not Found</body></html>"},
		{Timestamp: "20261112083000", Original: "https://www.example.com/robots.txt", Status: "200", Body: v1},
	}
}
