package ingest

import (
	"bytes"
	"io"
	"sync"
)

// block is a run of whole lines of one file, handed from the reader of the
// file to a parsing worker. The buffer comes from a pool and goes back to it
// once the block has been parsed.
type block struct {
	buf  *[]byte
	data []byte // whole lines; the last one may lack its '\n' at the end of the file
	file *fileState
	// fmt is the file's format when the block was cut, nil while it is not
	// known (the blocks before the first non-empty line).
	fmt       *formatEntry
	firstLine int64 // 1-based line number of the first line of data
	// truncated: the stream ended with an error, so the last line of data
	// (when it lacks its '\n') was cut short.
	truncated bool
}

// bufPool recycles block buffers of one capacity.
type bufPool struct {
	size int
	pool sync.Pool
}

func newBufPool(size int) *bufPool {
	p := &bufPool{size: size}
	p.pool.New = func() any {
		b := make([]byte, size)
		return &b
	}
	return p
}

func (p *bufPool) get() *[]byte  { return p.pool.Get().(*[]byte) }
func (p *bufPool) put(b *[]byte) { p.pool.Put(b) }

// splitter cuts a stream into blocks of whole lines. Each buffer holds at
// most blockBytes+maxLine bytes: a line longer than maxLine that does not fit
// in the buffer is never held whole; the splitter skips the rest of it and
// reports it through longLine with the beginning of its text.
type splitter struct {
	r       io.Reader
	pool    *bufPool
	maxLine int
	// emit receives each block; it owns the buffer from then on.
	emit func(buf *[]byte, data []byte, firstLine int64, truncated bool) error
	// longLine is called for each line longer than the buffer, with its line
	// number and its first bytes (at most sampleBytes).
	longLine func(line int64, prefix []byte)

	carry   int   // bytes left at the front of the buffer by skipLine
	pending error // read error met by skipLine, returned by the next read
}

// sampleBytes is how much of a line is kept for a sample: enough for 200
// characters even after \xHH escapes.
const sampleBytes = 800

// run reads the stream to its end. It returns nil at the end of the stream,
// the read error otherwise (after emitting everything read before it), or
// the first error of emit.
func (s *splitter) run() error {
	buf := s.pool.get()
	n := 0 // bytes of *buf filled
	line := int64(1)
	defer func() {
		if buf != nil {
			s.pool.put(buf)
		}
	}()
	for {
		b := *buf
		var rerr error
		for n < len(b) && rerr == nil {
			var m int
			m, rerr = s.read(b[n:])
			n += m
		}
		if rerr != nil {
			// End of the stream, or an error: everything read is the last block.
			truncated := rerr != io.EOF
			if n > 0 {
				out := buf
				buf = nil
				if err := s.emit(out, (*out)[:n], line, truncated); err != nil {
					return err
				}
			}
			if truncated {
				return rerr
			}
			return nil
		}
		// The buffer is full: cut after its last newline.
		i := bytes.LastIndexByte(b, '\n')
		if i < 0 {
			// One line fills the whole buffer: it is over-long.
			s.longLine(line, sampleOf(b))
			if err := s.skipLine(b); err != nil {
				return eofIsNil(err)
			}
			line++
			n = s.carry
			continue
		}
		lines := int64(bytes.Count(b[:i+1], []byte{'\n'}))
		tail := b[i+1:]
		next := s.pool.get()
		// maxLine+1: the line may still end in the '\r' of a CRLF end, which
		// the workers strip before they apply the exact limit.
		long := len(tail) > s.maxLine+1
		var prefix []byte
		if long {
			// The last line is already over-long: report it and skip the rest
			// of it after the lines before it have gone out.
			prefix = sampleOf(tail)
		} else {
			n = copy(*next, tail)
		}
		out := buf
		buf = next
		if err := s.emit(out, b[:i+1], line, false); err != nil {
			return err
		}
		line += lines
		if long {
			s.longLine(line, prefix)
			if err := s.skipLine(*buf); err != nil {
				return eofIsNil(err)
			}
			line++
			n = s.carry
		}
	}
}

// read reads from the stream, returning first an error held back by skipLine.
func (s *splitter) read(p []byte) (int, error) {
	if s.pending != nil {
		return 0, s.pending
	}
	return s.r.Read(p)
}

// sampleOf returns a copy of the first sampleBytes of line.
func sampleOf(line []byte) []byte {
	return append([]byte(nil), line[:min(len(line), sampleBytes)]...)
}

func eofIsNil(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// skipLine discards the rest of an over-long line, reading into b until its
// newline. The bytes after that newline are moved to the front of b and
// their count left in s.carry. At the end of the stream it returns io.EOF;
// on a read error, that error.
func (s *splitter) skipLine(b []byte) error {
	for {
		m, err := s.read(b)
		if i := bytes.IndexByte(b[:m], '\n'); i >= 0 {
			s.carry = copy(b, b[i+1:m])
			s.pending = err
			return nil
		}
		if err != nil {
			s.carry = 0
			return err
		}
	}
}
