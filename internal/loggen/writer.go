package loggen

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// Formats lists the formats NewWriter writes.
var Formats = []string{"combined", "jsonl", "w3c"}

// RequestWriter writes requests as log lines.
type RequestWriter interface {
	// Write writes one request.
	Write(r *Request) error
	// Close flushes what is buffered (and ends the gzip stream of a writer
	// made by NewGzipWriter). It does not close the underlying writer.
	Close() error
}

// NewWriter returns a writer of requests in format, one of Formats:
//
//   - "combined": Apache/nginx combined log format with the offset of each
//     request's time ([25/Oct/2026:02:59:59 +0200]); no host column. An
//     empty Referer is written "-". In the request line, referer and agent,
//     '"', '\\', control bytes and bytes above 126 (so UTF-8 too) are written
//     \xHH, as nginx does (escape=default).
//   - "jsonl": one JSON object per line with the keys time (RFC 3339 with
//     offset), remote_addr, method, uri, protocol, status, bytes, referer,
//     user_agent and host. An empty Referer is written "", as nginx does with
//     escape=json.
//   - "w3c": IIS W3C extended format, a "#Fields:" header then one line per
//     request with UTC date and time; the target is split into cs-uri-stem
//     and cs-uri-query ("-" when there is no query, so a target ending in a
//     bare "?" loses it; the generator makes none); spaces in the agent are
//     written '+', as IIS does, leaving a literal '+' as it is. A reader
//     cannot tell the two apart everywhere: "; +http://" (written ";++http://")
//     reads back right with the usual rule (a run of n '+' is a space and n-1
//     '+'), PetalBot's ";+https://" reads back as "; https://". What the
//     agent identifies does not change.
//
// Output is buffered: call Close when done.
func NewWriter(w io.Writer, format string) (RequestWriter, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	switch format {
	case "combined":
		return &combinedWriter{w: bw}, nil
	case "jsonl":
		return &jsonlWriter{w: bw}, nil
	case "w3c":
		return &w3cWriter{w: bw}, nil
	}
	return nil, fmt.Errorf("unknown log format %q: use one of combined, jsonl, w3c", format)
}

// NewGzipWriter is NewWriter with the output compressed by gzip (default
// level, no name and no modification time in the header, so that the same
// requests give the same bytes).
func NewGzipWriter(w io.Writer, format string) (RequestWriter, error) {
	zw := gzip.NewWriter(w)
	rw, err := NewWriter(zw, format)
	if err != nil {
		return nil, err
	}
	return &gzipWriter{RequestWriter: rw, zw: zw}, nil
}

type gzipWriter struct {
	RequestWriter
	zw *gzip.Writer
}

func (g *gzipWriter) Close() error {
	if err := g.RequestWriter.Close(); err != nil {
		return err
	}
	return g.zw.Close()
}

type combinedWriter struct {
	w   *bufio.Writer
	buf []byte
}

func (c *combinedWriter) Write(r *Request) error {
	b := c.buf[:0]
	b = append(b, r.ClientIP...)
	b = append(b, " - - ["...)
	b = appendCLFTime(b, r.Unix, r.Offset)
	b = append(b, "] \""...)
	b = append(b, r.Method...)
	b = append(b, ' ')
	b = appendEscaped(b, r.Target)
	b = append(b, ' ')
	b = append(b, r.Protocol...)
	b = append(b, "\" "...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, " \""...)
	if len(r.Referer) == 0 {
		b = append(b, '-')
	} else {
		b = appendEscaped(b, r.Referer)
	}
	b = append(b, "\" \""...)
	b = appendEscaped(b, r.UserAgent)
	b = append(b, "\"\n"...)
	c.buf = b
	_, err := c.w.Write(b)
	return err
}

func (c *combinedWriter) Close() error { return c.w.Flush() }

type jsonlWriter struct {
	w   *bufio.Writer
	buf []byte
}

func (j *jsonlWriter) Write(r *Request) error {
	b := j.buf[:0]
	b = append(b, `{"time":"`...)
	b = appendISOTime(b, r.Unix, r.Offset)
	b = append(b, `","remote_addr":`...)
	b = appendJSONString(b, r.ClientIP)
	b = append(b, `,"method":`...)
	b = appendJSONString(b, r.Method)
	b = append(b, `,"uri":`...)
	b = appendJSONString(b, r.Target)
	b = append(b, `,"protocol":`...)
	b = appendJSONString(b, r.Protocol)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, `,"referer":`...)
	b = appendJSONString(b, r.Referer)
	b = append(b, `,"user_agent":`...)
	b = appendJSONString(b, r.UserAgent)
	b = append(b, `,"host":`...)
	b = appendJSONString(b, r.Host)
	if r.Signature != "" {
		b = append(b, `,"signature_agent":`...)
		b = appendJSONString(b, r.SignatureAgent)
		b = append(b, `,"signature_input":`...)
		b = appendJSONString(b, r.SignatureInput)
		b = append(b, `,"signature":`...)
		b = appendJSONString(b, r.Signature)
	}
	b = append(b, "}\n"...)
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

func (j *jsonlWriter) Close() error { return j.w.Flush() }

// W3CFields is the "#Fields:" directive the w3c writer uses: the IIS default
// fields plus cs-version, cs-host and sc-bytes.
const W3CFields = "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs-version cs(User-Agent) cs(Referer) cs-host sc-status sc-substatus sc-win32-status sc-bytes time-taken"

type w3cWriter struct {
	w      *bufio.Writer
	buf    []byte
	header bool
}

func (x *w3cWriter) Write(r *Request) error {
	b := x.buf[:0]
	if !x.header {
		x.header = true
		b = append(b, "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: "...)
		b = appendW3CTime(b, r.Unix)
		b = append(b, "\n#Fields: "...)
		b = append(b, W3CFields...)
		b = append(b, '\n')
	}
	b = appendW3CTime(b, r.Unix)
	b = append(b, " 10.0.0.4 "...)
	b = append(b, r.Method...)
	b = append(b, ' ')
	stem, query := r.Target, []byte(nil)
	for i, c := range r.Target {
		if c == '?' {
			stem, query = r.Target[:i], r.Target[i+1:]
			break
		}
	}
	b = appendW3CField(b, stem)
	b = append(b, ' ')
	b = appendW3CField(b, query)
	b = append(b, " 443 - "...)
	b = append(b, r.ClientIP...)
	b = append(b, ' ')
	b = appendW3CField(b, r.Protocol)
	b = append(b, ' ')
	b = appendW3CField(b, r.UserAgent)
	b = append(b, ' ')
	b = appendW3CField(b, r.Referer)
	b = append(b, ' ')
	b = appendW3CField(b, r.Host)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, " 0 0 "...)
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, ' ')
	// time-taken in milliseconds: a function of the size, so that the
	// output depends on the request alone.
	b = strconv.AppendInt(b, 3+r.Bytes/40000+int64(len(r.Target)%17), 10)
	b = append(b, '\n')
	x.buf = b
	_, err := x.w.Write(b)
	return err
}

func (x *w3cWriter) Close() error { return x.w.Flush() }

// appendW3CField writes s with spaces as '+', "-" when empty; other
// whitespace and control bytes are written '+' too (IIS never writes them).
func appendW3CField[T string | []byte](b []byte, s T) []byte {
	if len(s) == 0 {
		return append(b, '-')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f {
			c = '+'
		}
		b = append(b, c)
	}
	return b
}

// appendEscaped writes s for a combined log: '"', '\', control bytes and
// bytes above 126 as \xHH (nginx's escape=default).
func appendEscaped[T string | []byte](b []byte, s T) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' || c < 0x20 || c > 0x7e {
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

// appendJSONString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString[T string | []byte](b []byte, s T) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

func appendOffset(b []byte, off int32, colon bool) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = append(b, sign)
	b = append2(b, int(off/3600))
	if colon {
		b = append(b, ':')
	}
	return append2(b, int(off%3600/60))
}

// appendCLFTime writes "25/Oct/2026:02:59:59 +0200".
func appendCLFTime(b []byte, unix int64, off int32) []byte {
	t := time.Unix(unix+int64(off), 0).UTC()
	y, m, d := t.Date()
	hh, mm, ss := t.Clock()
	b = append2(b, d)
	b = append(b, '/')
	b = append(b, months[m-1]...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, ':')
	b = append2(b, hh)
	b = append(b, ':')
	b = append2(b, mm)
	b = append(b, ':')
	b = append2(b, ss)
	b = append(b, ' ')
	return appendOffset(b, off, false)
}

// appendISOTime writes "2026-10-25T02:59:59+02:00".
func appendISOTime(b []byte, unix int64, off int32) []byte {
	b = appendDateTime(b, unix+int64(off), 'T')
	return appendOffset(b, off, true)
}

// appendW3CTime writes "2026-10-25 00:59:59" (UTC).
func appendW3CTime(b []byte, unix int64) []byte {
	return appendDateTime(b, unix, ' ')
}

// appendDateTime writes the UTC date and time of unix as
// "2026-10-25<sep>00:59:59".
func appendDateTime(b []byte, unix int64, sep byte) []byte {
	t := time.Unix(unix, 0).UTC()
	y, m, d := t.Date()
	hh, mm, ss := t.Clock()
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, '-')
	b = append2(b, int(m))
	b = append(b, '-')
	b = append2(b, d)
	b = append(b, sep)
	b = append2(b, hh)
	b = append(b, ':')
	b = append2(b, mm)
	b = append(b, ':')
	return append2(b, ss)
}
