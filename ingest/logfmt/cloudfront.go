package logfmt

// The cloudfront format: Amazon CloudFront standard logs (access logs, the
// legacy "v1" layout and the W3C-style output of standard logging v2): one
// request per line, fields separated by tabs, "-" for absent, "#Version:" and
// "#Fields:" header lines (ErrDirective).
//
// Decisions:
//   - A "#Fields:" line, when present, sets the layout (the format is
//     Stateful); without one, the v1 field order is assumed (date time
//     x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status
//     cs(Referer) cs(User-Agent) cs-uri-query ...), and a line needs at least
//     those 12 fields; later fields are optional, as in older files.
//   - Host is x-host-header, the Host header the viewer sent (the site's own
//     name, "www.example.com", which is what robots.txt is published for);
//     cs(Host), the distribution's domain name ("d111111abcdef8.cloudfront.net"),
//     is used only when x-host-header is absent.
//   - date and time are UTC. target is cs-uri-stem plus "?" and cs-uri-query
//     when the query is not "-", exactly as logged (CloudFront percent-encodes
//     some octets in them; the robots matcher normalises percent-encoding).
//   - cs(User-Agent) and cs(Referer) are URL-encoded by CloudFront ("%20" for
//     a space) and are decoded once; a user agent that was encoded twice
//     ("%2520") is decoded twice (see decodeCloudFrontUA).
//   - protocol is cs-protocol-version ("HTTP/2.0"); bytes is sc-bytes, the
//     whole response including headers, which is all CloudFront logs.
//   - forwarded_for is x-forwarded-for, the X-Forwarded-For header the
//     viewer sent when it came through a proxy (c-ip is then the proxy),
//     kept whole with any percent-encoding undone; "-" is absent.

func init() {
	register(Format{
		Name:      "cloudfront",
		Doc:       "Amazon CloudFront standard logs (tab-separated, #Version/#Fields headers)",
		New:       func() Parser { return newExtParser(extCloudFront) },
		Stateful:  true,
		Sniffable: true,
	})
}
