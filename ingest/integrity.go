package ingest

import (
	"bufio"
	"compress/bzip2"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// IntegrityError is a compressed file that failed an integrity check: a
// gzip member whose CRC-32 or length (ISIZE) does not match its data, whose
// deflate data is corrupt, or whose header is invalid; a zstd frame whose
// checksum does not match or that is corrupt; a bzip2 stream whose block or
// stream checksum does not match or whose structure is invalid. The lines
// decompressed from such a file are damage, not data: the caller should
// not trust any of them. A file merely cut short (io.ErrUnexpectedEOF) is
// not an IntegrityError: its readable lines count (see FileError).
//
// Run returns it wrapped in a *FileError (whose Offset is At); errors.As
// finds it in the error Run returns, and IntegrityErrors lists all of them.
type IntegrityError struct {
	File        string
	Compression string // CompressionGzip, CompressionZstd or CompressionBzip2
	// Member is the 1-based number of the gzip member or zstd frame (every
	// frame counts, skippable frames included) in which the check failed;
	// 0 when unknown (bzip2, whose blocks do not start on a byte).
	Member int
	// Offset is the compressed byte offset in the file at which that member
	// or frame starts; -1 when Member is 0.
	Offset int64
	// At is the compressed byte offset at which the failure was detected:
	// how many bytes of the file the decompressor had consumed. The damage
	// lies before it (a CRC is checked at the end of its member).
	At  int64
	Err error
}

// Error returns "FILE: gzip member 2 (at byte offset 81234): integrity check
// failed at byte offset 90001: gzip: invalid checksum", or for an unknown
// member "FILE: bzip2 stream: integrity check failed at byte offset N: ERR".
func (e *IntegrityError) Error() string { return e.File + ": " + e.detail() }

// detail is the message without the file name (FileAccounting.Integrity).
func (e *IntegrityError) detail() string {
	if e.Member <= 0 {
		return fmt.Sprintf("%s stream: integrity check failed at byte offset %d: %v", e.Compression, e.At, e.Err)
	}
	unit := "member"
	if e.Compression == CompressionZstd {
		unit = "frame"
	}
	return fmt.Sprintf("%s %s %d (at byte offset %d): integrity check failed at byte offset %d: %v",
		e.Compression, unit, e.Member, e.Offset, e.At, e.Err)
}

// Unwrap returns the decompressor's error (gzip.ErrChecksum,
// flate.CorruptInputError, zstd.ErrCRCMismatch, bzip2.StructuralError...).
func (e *IntegrityError) Unwrap() error { return e.Err }

// IntegrityErrors returns every *IntegrityError in the tree of err, as
// errors.Join and wrapping (Unwrap() error, Unwrap() []error) build it, in
// order: the files of a run that failed an integrity check.
func IntegrityErrors(err error) []*IntegrityError {
	var out []*IntegrityError
	var walk func(error)
	walk = func(e error) {
		switch u := e.(type) {
		case nil:
		case *IntegrityError:
			out = append(out, u)
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// position is the number of bytes of the file consumed by the reader of br:
// those read from the file minus those still buffered.
func position(raw *countingReader, br *bufio.Reader) int64 {
	return raw.n - int64(br.Buffered())
}

// gzipMembers decompresses a gzip file one member at a time, so that an
// integrity failure is known with its member and where the member starts.
type gzipMembers struct {
	zr     *gzip.Reader // Multistream(false), positioned in member
	br     *bufio.Reader
	raw    *countingReader
	name   string
	member int   // 1-based member being read
	start  int64 // its compressed offset
	err    error // sticky: io.EOF, or the error returned
}

func newGzipMembers(name string, raw *countingReader, br *bufio.Reader) (*gzipMembers, error) {
	g := &gzipMembers{br: br, raw: raw, name: name, member: 1}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, g.damage(err)
	}
	zr.Multistream(false)
	g.zr = zr
	return g, nil
}

// Read implements io.Reader. Integrity failures are *IntegrityError; a
// stream cut short returns io.ErrUnexpectedEOF.
func (g *gzipMembers) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		switch err {
		case nil:
			return n, nil
		case io.EOF:
			// The member is complete and its CRC and length are right: on
			// to the next one, if any.
			start := position(g.raw, g.br)
			if err := g.zr.Reset(g.br); err != nil {
				if err == io.EOF {
					g.err = io.EOF
				} else {
					g.member, g.start = g.member+1, start
					g.err = g.damage(err)
				}
			} else {
				g.zr.Multistream(false) // Reset turns it back on
				g.member, g.start = g.member+1, start
			}
			if n > 0 {
				return n, nil
			}
		default:
			g.err = g.damage(err)
			return n, g.err
		}
	}
	return 0, g.err
}

// damage returns err as an *IntegrityError when it is one (a checksum,
// corrupt data, an invalid header), else err itself.
func (g *gzipMembers) damage(err error) error {
	var corrupt flate.CorruptInputError
	if g.raw.err == nil && (errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &corrupt)) {
		return &IntegrityError{File: g.name, Compression: CompressionGzip, Member: g.member, Offset: g.start, At: position(g.raw, g.br), Err: err}
	}
	return err
}

func (g *gzipMembers) Close() error {
	if g.zr == nil {
		return nil
	}
	return g.zr.Close()
}

// damageReader turns the integrity failures of a zstd or bzip2 decoder into
// *IntegrityError.
type damageReader struct {
	r      io.Reader
	damage func(error) error
	err    error
}

func (d *damageReader) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.r.Read(p)
	if err != nil {
		if err != io.EOF {
			err = d.damage(err)
		}
		d.err = err
	}
	return n, err
}

// newBzip2Reader decompresses a bzip2 file (concatenated streams included).
// compress/bzip2 reports a checksum mismatch or an invalid structure as a
// bzip2.StructuralError; its blocks do not start on a byte, so the error
// says only where it was detected.
func newBzip2Reader(name string, raw *countingReader, br *bufio.Reader) io.Reader {
	return &damageReader{r: bzip2.NewReader(br), damage: func(err error) error {
		var se bzip2.StructuralError
		if raw.err == nil && errors.As(err, &se) {
			return &IntegrityError{File: name, Compression: CompressionBzip2, Offset: -1, At: position(raw, br), Err: err}
		}
		return err
	}}
}

// newZstdReader decompresses a zstd file. The decoder runs synchronously
// (one goroutine), so it reads exactly the bytes it decodes, through a
// zstdFrames that follows the frames; a failure is then located in the frame
// of the last byte read. Every decoder error is an integrity failure but a
// stream cut short, a read error and the limits of the decoder (a window
// larger than zstdMaxWindow).
func newZstdReader(name string, raw *countingReader, br *bufio.Reader) (io.Reader, func(), error) {
	frames := &zstdFrames{r: br}
	zr, err := zstd.NewReader(frames, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow))
	if err != nil {
		return nil, nil, err
	}
	r := &damageReader{r: zr, damage: func(err error) error {
		if raw.err != nil || errors.Is(err, io.ErrUnexpectedEOF) ||
			errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			return err
		}
		ie := &IntegrityError{File: name, Compression: CompressionZstd, Member: frames.frame, Offset: frames.start, At: frames.off, Err: err}
		if ie.Member == 0 {
			ie.Offset = -1
		}
		return ie
	}}
	return r, zr.Close, nil
}

// zstdFrames passes a zstd stream through and follows its framing (RFC 8878
// §3.1): frame headers, block headers and sizes, checksums, skippable
// frames. It knows the frame of the last byte read and where that frame
// starts. Framing it does not understand (a bad magic number, a reserved
// block type) stops the following, not the reading: the decoder fails on
// it in the frame already counted.
//
// Skippable frames (pzstd writes one before each frame, the seekable
// format a seek table after them) are not passed: the decoder would print
// "Skipping frame with N bytes." on stderr for each (klauspost/compress
// v1.20 does so unconditionally). A frame's magic number is held back until
// its four bytes say which kind it is; at the end of the stream what is
// held goes to the decoder, which reports a truncated frame as it would without this filter.
type zstdFrames struct {
	r     io.Reader
	off   int64 // bytes read
	frame int   // 1-based frame of the last byte read; 0 before any
	start int64 // offset of its first byte

	buf   []byte // what was read
	pass  []byte // what the decoder gets, from passN on
	passN int
	err   error // of the last read

	state    uint8
	phase    uint8 // of zsBulk: what the bytes are
	need     int64 // bytes left in zsBulk
	field    [4]byte
	fieldN   int
	checksum bool // the frame ends in a 4-byte content checksum
	last     bool // the block is the frame's last
}

// States of zstdFrames: collecting a field of fixed length, or passing
// need bytes of one phase.
const (
	zsMagic       = iota // 4 bytes: frame magic number
	zsSkipSize           // 4 bytes: size of a skippable frame
	zsDescriptor         // 1 byte: Frame_Header_Descriptor
	zsBlockHeader        // 3 bytes
	zsBulk               // need bytes of phase
	zsLost               // framing not understood
)

// Phases of zsBulk.
const (
	zpHeaderRest = iota // window descriptor, dictionary id, content size
	zpBlock             // block content
	zpChecksum          // content checksum
	zpSkip              // skippable frame content
)

const (
	zstdMagic          = 0xFD2FB528
	zstdSkippableMagic = 0x184D2A50 // low 4 bits free
)

func (z *zstdFrames) Read(p []byte) (int, error) {
	for z.passN == len(z.pass) {
		if z.err != nil {
			return 0, z.err
		}
		if z.buf == nil {
			z.buf = make([]byte, 64<<10)
		}
		z.pass, z.passN = z.pass[:0], 0
		// No more than the decoder asks for, so that the frame of the
		// last byte read is the decoder's.
		n, err := z.r.Read(z.buf[:min(len(p), len(z.buf))])
		z.follow(z.buf[:n])
		if err != nil {
			switch {
			case z.state == zsMagic && z.fieldN > 0:
				z.pass = append(z.pass, z.field[:z.fieldN]...) // a magic number cut short
			case err == io.EOF && (z.state == zsSkipSize || z.state == zsBulk && z.phase == zpSkip):
				// Truncated, as the decoder would say; wrapped, as the
				// decoder takes a bare io.ErrUnexpectedEOF before a frame
				// for the end of the stream.
				err = fmt.Errorf("cut inside a skippable frame: %w", io.ErrUnexpectedEOF)
			}
			z.err = err
		}
	}
	n := copy(p, z.pass[z.passN:])
	z.passN += n
	return n, nil
}

func (z *zstdFrames) follow(p []byte) {
	for len(p) > 0 {
		switch z.state {
		case zsLost:
			z.off += int64(len(p))
			z.pass = append(z.pass, p...)
			return
		case zsBulk:
			k := min(z.need, int64(len(p)))
			z.off += k
			z.need -= k
			if z.phase != zpSkip {
				z.pass = append(z.pass, p[:k]...)
			}
			p = p[k:]
			if z.need == 0 {
				z.endBulk()
			}
		default:
			if z.state == zsMagic && z.fieldN == 0 {
				z.frame++
				z.start = z.off
			}
			state := z.state
			z.field[z.fieldN] = p[0]
			z.fieldN++
			z.off++
			if state != zsMagic && state != zsSkipSize {
				z.pass = append(z.pass, p[0])
			}
			p = p[1:]
			if z.fieldN == z.fieldLen() {
				n := z.fieldN
				z.fieldN = 0
				z.endField()
				if state == zsMagic && z.state != zsSkipSize {
					z.pass = append(z.pass, z.field[:n]...) // a frame's, or one not understood
				}
			}
		}
	}
}

func (z *zstdFrames) fieldLen() int {
	switch z.state {
	case zsDescriptor:
		return 1
	case zsBlockHeader:
		return 3
	}
	return 4
}

func (z *zstdFrames) bulk(n int64, phase uint8) {
	z.state, z.phase, z.need = zsBulk, phase, n
	if n == 0 {
		z.endBulk()
	}
}

func (z *zstdFrames) endBulk() {
	switch z.phase {
	case zpHeaderRest:
		z.state = zsBlockHeader
	case zpBlock:
		switch {
		case !z.last:
			z.state = zsBlockHeader
		case z.checksum:
			z.bulk(4, zpChecksum)
		default:
			z.state = zsMagic
		}
	default: // zpChecksum, zpSkip
		z.state = zsMagic
	}
}

func (z *zstdFrames) endField() {
	switch z.state {
	case zsMagic:
		switch m := binary.LittleEndian.Uint32(z.field[:]); {
		case m == zstdMagic:
			z.state = zsDescriptor
		case m&^0xF == zstdSkippableMagic:
			z.state = zsSkipSize
		default:
			z.state = zsLost
		}
	case zsSkipSize:
		z.bulk(int64(binary.LittleEndian.Uint32(z.field[:])), zpSkip)
	case zsDescriptor:
		fhd := z.field[0]
		single := fhd&0x20 != 0
		z.checksum = fhd&0x04 != 0
		n := [4]int64{0, 1, 2, 4}[fhd&3] + [4]int64{0, 2, 4, 8}[fhd>>6] // dictionary id, content size
		if fhd>>6 == 0 && single {
			n++ // a 1-byte content size
		}
		if !single {
			n++ // window descriptor
		}
		z.bulk(n, zpHeaderRest)
	case zsBlockHeader:
		h := uint32(z.field[0]) | uint32(z.field[1])<<8 | uint32(z.field[2])<<16
		z.last = h&1 != 0
		size := int64(h >> 3)
		switch (h >> 1) & 3 {
		case 1: // RLE: one byte repeated size times
			size = 1
		case 3: // reserved
			z.state = zsLost
			return
		}
		z.bulk(size, zpBlock)
	}
}
