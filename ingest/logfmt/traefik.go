package logfmt

// Traefik's access log in its default "common" format (CLF plus Traefik's
// own fields), as written by Traefik v1, v2 and v3:
//
//	<client> - <user> [<time>] "<request>" <status> <size> "<referer>" "<user agent>" <count> "<router>" "<server URL>" <duration>ms
//
// Traefik writes "-" for the status and size of a request that got no
// response (both absent, -1). It logs no virtual host: Host stays nil (the
// router name and the server URL are the proxy's, not the requested host).
// The request count and the duration must be numbers, which is what tells a
// Traefik line from a combined line with extra fields.
const layoutTraefik = `%h %l %u %t "%r" %>s %B "%{Referer}i" "%{User-Agent}i" %{count}X "%{router}X" "%{server}X" %{duration}Xms`

func init() {
	l := mustCompile(layoutTraefik, false)
	for i := range l.fields {
		switch l.fields[i].name {
		case "%{count}X":
			l.fields[i].kind = kDigits
		case "%{duration}X":
			l.fields[i].kind = kMillis
		}
	}
	l.prepare()
	register(Format{
		Name:      "traefik",
		Doc:       `Traefik CLF: combined plus <count> "<router>" "<server URL>" <duration>ms`,
		New:       l.newParser,
		Sniffable: true,
	})
}
