package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// memberText returns the text of member (or frame) m of a test file:
// lines numbered on from the members before it, so that every member's
// data differ.
func memberText(m, lines int) string {
	var b strings.Builder
	for i := m * lines; i < (m+1)*lines; i++ {
		b.WriteString(tsvLine(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// checkIntegrity checks that err holds an *IntegrityError of file p with
// the given member and offsets (at < 0: only that the failure was detected
// inside the member or after it), found by errors.As and IntegrityErrors,
// wrapped in a *FileError whose offset is its At, and that the file's
// accounting says it failed its integrity check.
func checkIntegrity(t *testing.T, err error, acc *Accounting, p, comp string, member int, offset, at int64) *IntegrityError {
	t.Helper()
	var ie *IntegrityError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v: want an *IntegrityError", err)
	}
	if ie.File != p || ie.Compression != comp || ie.Member != member || ie.Offset != offset {
		t.Errorf("IntegrityError %+v: want file %s, %s member %d at offset %d", ie, p, comp, member, offset)
	}
	if at >= 0 && ie.At != at || at < 0 && ie.At < max(offset, 0) {
		t.Errorf("IntegrityError detected at %d, want %d (or after %d)", ie.At, at, offset)
	}
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != p || fe.Offset != ie.At || fe.Err != ie {
		t.Errorf("FileError %+v does not wrap the IntegrityError with its offset %d", fe, ie.At)
	}
	if all := IntegrityErrors(err); len(all) != 1 || all[0] != ie {
		t.Errorf("IntegrityErrors = %v, want [%v]", all, ie)
	}
	if fe.Error() != ie.Error() || !strings.HasPrefix(ie.Error(), p+": "+comp+" ") || !strings.Contains(ie.Error(), "integrity check failed") {
		t.Errorf("message %q", fe.Error())
	}
	f := acc.PerFile[0]
	if f.Integrity == "" || f.Error == "" || p+": "+f.Integrity != ie.Error() {
		t.Errorf("file accounting: integrity %q error %q, want %q", f.Integrity, f.Error, ie.Error())
	}
	checkInvariant(t, acc)
	return ie
}

// checkCut checks that err is the error of a file cut short: a *FileError
// with io.ErrUnexpectedEOF, no *IntegrityError.
func checkCut(t *testing.T, err error, acc *Accounting, p string) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != p || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v: want a *FileError with io.ErrUnexpectedEOF", err)
	}
	var ie *IntegrityError
	if errors.As(err, &ie) || len(IntegrityErrors(err)) != 0 || acc.PerFile[0].Integrity != "" {
		t.Errorf("a file cut short is no integrity failure: %v, %q", err, acc.PerFile[0].Integrity)
	}
	checkInvariant(t, acc)
}

// TestGzipIntegrity: real gzip files of 1, 2 or 3 members (RFC 1952 §2.2:
// header, deflate data, CRC32 and ISIZE), one byte flipped in a member; the
// IntegrityError names that member and where it starts, computed from the
// member lengths written. Today's reader returned the decompressed garbage
// with a plain error at the end of the file.
func TestGzipIntegrity(t *testing.T) {
	const lines = 2000
	type flip int
	const (
		inData   flip = iota // middle of the deflate data
		inCRC                // first byte of the CRC32 trailer
		inISIZE              // third byte of the ISIZE trailer
		inHeader             // the compression method (CM, 8) of the member's header
		cut                  // no flip: the file cut in the middle of the member
	)
	for _, tc := range []struct {
		name    string
		members int
		damaged int // 1-based
		flip    flip
	}{
		{"1 member, deflate data", 1, 1, inData},
		{"1 member, CRC32", 1, 1, inCRC},
		{"1 member, ISIZE", 1, 1, inISIZE},
		{"1 member, header", 1, 1, inHeader},
		{"2 members, member 2 deflate data", 2, 2, inData},
		{"2 members, member 2 CRC32", 2, 2, inCRC},
		{"2 members, member 2 ISIZE", 2, 2, inISIZE},
		{"2 members, member 2 header", 2, 2, inHeader},
		{"3 members, member 2 deflate data", 3, 2, inData},
		{"3 members, member 2 CRC32", 3, 2, inCRC},
		{"3 members, member 2 ISIZE", 3, 2, inISIZE},
		{"3 members, member 2 header", 3, 2, inHeader},
		{"3 members, member 3 CRC32", 3, 3, inCRC},
		{"3 members, cut in member 2", 3, 2, cut},
		{"1 member, cut", 1, 1, cut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var file []byte
			var starts, lens []int64
			for m := range tc.members {
				var b bytes.Buffer
				zw := gzip.NewWriter(&b) // a 10-byte header: no name, no extra field
				zw.Write([]byte(memberText(m, lines)))
				if err := zw.Close(); err != nil {
					t.Fatal(err)
				}
				starts = append(starts, int64(len(file)))
				lens = append(lens, int64(b.Len()))
				file = append(file, b.Bytes()...)
			}
			d := tc.damaged - 1
			start, end := starts[d], starts[d]+lens[d]
			wantAt := int64(-1) // the deflate decoder stops wherever the damage leads it
			switch tc.flip {
			case inData:
				file[start+10+(lens[d]-18)/2] ^= 0x55
			case inCRC:
				file[end-8] ^= 0x01
				wantAt = end // checked after the 8-byte trailer is read
			case inISIZE:
				file[end-2] ^= 0x01
				wantAt = end
			case inHeader:
				file[start+2] ^= 0xff
			case cut:
				file = file[:start+lens[d]/2]
			}
			p := writeFile(t, t.TempDir(), "access.log.gz", file)
			rows, _, acc, err := collect(t, []string{p}, Options{BlockBytes: 16 << 10})
			if tc.flip == cut {
				checkCut(t, err, acc, p)
				if f := acc.PerFile[0]; f.Parsed < int64(d*lines) || f.Parsed >= int64(tc.damaged*lines) {
					t.Errorf("parsed %d lines of a file cut in member %d of %d lines each", f.Parsed, tc.damaged, lines)
				}
				return
			}
			ie := checkIntegrity(t, err, acc, p, CompressionGzip, tc.damaged, start, wantAt)
			if tc.flip == inHeader && !errors.Is(ie, gzip.ErrHeader) ||
				(tc.flip == inCRC || tc.flip == inISIZE) && !errors.Is(ie, gzip.ErrChecksum) {
				t.Errorf("IntegrityError %v unwraps to the wrong error", ie)
			}
			want := fmt.Sprintf("%s: gzip member %d (at byte offset %d): integrity check failed at byte offset %d: ", p, tc.damaged, start, ie.At)
			if !strings.HasPrefix(ie.Error(), want) {
				t.Errorf("message %q, want it to begin %q", ie.Error(), want)
			}
			// The members before the damaged one are read whole.
			if len(rows) < d*lines {
				t.Errorf("%d rows, want the %d of the members before member %d", len(rows), d*lines, tc.damaged)
			}
		})
	}
}

// TestZstdIntegrity: zstd files of frames with a content checksum (RFC 8878
// §3.1.1: the low 4 bytes of the XXH64 of the content), one byte flipped.
func TestZstdIntegrity(t *testing.T) {
	const lines = 2000
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	skippable := []byte{0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'a', 'b', 'c'} // RFC 8878 §3.1.2
	for _, tc := range []struct {
		name      string
		frames    int
		skippable bool // a skippable frame before frame 2 (it counts as a frame)
		damaged   int
		flip      string // "checksum", "data", "cut"
	}{
		{"1 frame, checksum", 1, false, 1, "checksum"},
		{"3 frames, frame 2 checksum", 3, false, 2, "checksum"},
		{"3 frames, frame 2 data", 3, false, 2, "data"},
		{"2 frames after a skippable frame, frame 3 checksum", 2, true, 3, "checksum"},
		{"3 frames, cut in frame 2", 3, false, 2, "cut"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var file []byte
			var starts, lens []int64
			add := func(b []byte) {
				starts = append(starts, int64(len(file)))
				lens = append(lens, int64(len(b)))
				file = append(file, b...)
			}
			for m := range tc.frames {
				if m == 1 && tc.skippable {
					add(skippable)
				}
				add(enc.EncodeAll([]byte(memberText(m, lines)), nil))
			}
			d := tc.damaged - 1
			start, end := starts[d], starts[d]+lens[d]
			wantAt := int64(-1)
			switch tc.flip {
			case "checksum":
				file[end-2] ^= 0x01
				wantAt = end
			case "data":
				file[start+lens[d]/2] ^= 0x55
			case "cut":
				file = file[:start+lens[d]/2]
			}
			p := writeFile(t, t.TempDir(), "access.log.zst", file)
			_, _, acc, err := collect(t, []string{p}, Options{BlockBytes: 16 << 10})
			if tc.flip == "cut" {
				checkCut(t, err, acc, p)
				return
			}
			ie := checkIntegrity(t, err, acc, p, CompressionZstd, tc.damaged, start, wantAt)
			if tc.flip == "checksum" && !errors.Is(ie, zstd.ErrCRCMismatch) {
				t.Errorf("IntegrityError %v, want zstd.ErrCRCMismatch", ie)
			}
			if want := fmt.Sprintf("%s: zstd frame %d (at byte offset %d): integrity check failed", p, tc.damaged, start); !strings.HasPrefix(ie.Error(), want) {
				t.Errorf("message %q, want it to begin %q", ie.Error(), want)
			}
		})
	}
}

// TestBzip2Integrity: the bzip2 fixture (two streams) with one byte of
// block data flipped, and cut short.
func TestBzip2Integrity(t *testing.T) {
	good, err := os.ReadFile(bzip2Fixture)
	if err != nil {
		t.Fatal(err)
	}
	second := int64(bytes.Index(good[4:], []byte("BZh91AY&SY"))) + 4 // the second stream
	if second < 4 {
		t.Fatal("the fixture has one stream")
	}
	for _, tc := range []struct {
		name string
		at   int64 // byte flipped, or -1
		cut  int64 // length kept, or -1
	}{
		{"stream 1 block data", second / 2, -1},
		{"stream 2 block data", second + (int64(len(good))-second)/2, -1},
		{"cut in stream 2", -1, second + 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := bytes.Clone(good)
			if tc.at >= 0 {
				file[tc.at] ^= 0x55
			}
			if tc.cut >= 0 {
				file = file[:tc.cut]
			}
			p := writeFile(t, t.TempDir(), "access.log.bz2", file)
			_, _, acc, err := collect(t, []string{p}, Options{})
			if tc.cut >= 0 {
				checkCut(t, err, acc, p)
				return
			}
			ie := checkIntegrity(t, err, acc, p, CompressionBzip2, 0, -1, -1)
			if ie.At <= tc.at {
				t.Errorf("detected at %d, before the damage at %d", ie.At, tc.at)
			}
			if want := fmt.Sprintf("%s: bzip2 stream: integrity check failed at byte offset %d: ", p, ie.At); !strings.HasPrefix(ie.Error(), want) {
				t.Errorf("message %q, want it to begin %q", ie.Error(), want)
			}
		})
	}
}

// TestIntegrityErrorsJoined: Run joins the errors of its files; errors.As
// and IntegrityErrors find each file's IntegrityError in the joined error.
func TestIntegrityErrorsJoined(t *testing.T) {
	dir := t.TempDir()
	bad := func(name string) string {
		z := gzipBytes(t, tsvLog(100))
		z[len(z)-8] ^= 1
		return writeFile(t, dir, name, z)
	}
	p1 := bad("a.log.gz")
	good := writeFile(t, dir, "b.log", []byte(tsvLog(10)))
	cut := gzipBytes(t, tsvLog(1000))
	p3 := writeFile(t, dir, "c.log.gz", cut[:len(cut)/2])
	p4 := bad("d.log.gz")
	_, _, acc, err := collect(t, []string{p1, good, p3, p4}, Options{})
	var ie *IntegrityError
	if !errors.As(err, &ie) || ie.File != p1 {
		t.Fatalf("errors.As: %v, want the IntegrityError of %s", ie, p1)
	}
	all := IntegrityErrors(err)
	if len(all) != 2 || all[0].File != p1 || all[1].File != p4 {
		t.Fatalf("IntegrityErrors = %v, want those of %s and %s", all, p1, p4)
	}
	for i, f := range acc.PerFile {
		if (f.Integrity != "") != (i == 0 || i == 3) {
			t.Errorf("%s: integrity %q", f.Name, f.Integrity)
		}
	}
	checkInvariant(t, acc)
}

// TestZstdFrames: zstdFrames follows the framing of real zstd streams:
// after each frame, it has counted it and knows where it started; and it
// passes the decoder every frame but the skippable ones, whatever the sizes
// of the reads.
func TestZstdFrames(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	defer enc.Close()
	noCRC, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true))
	defer noCRC.Close()
	frames := [][]byte{
		enc.EncodeAll([]byte(memberText(0, 3000)), nil),
		{0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}, // an empty skippable frame
		noCRC.EncodeAll([]byte("x"), nil),
		enc.EncodeAll(nil, nil),
		{0x5f, 0x2a, 0x4d, 0x18, 5, 0, 0, 0, 0x28, 0xb5, 0x2f, 0xfd, 0}, // a skippable frame holding a magic number
		noCRC.EncodeAll(bytes.Repeat([]byte("a"), 100000), nil),         // RLE blocks
		enc.EncodeAll([]byte(memberText(1, 3000)), nil),
	}
	skippable := map[int]bool{1: true, 4: true}
	var file, want []byte
	for i, f := range frames {
		file = append(file, f...)
		if !skippable[i] {
			want = append(want, f...)
		}
	}
	for _, chunk := range []int{1, 7, 4096, len(file)} {
		// The framing, fed chunk by chunk.
		z := &zstdFrames{}
		off := int64(0)
		for i, f := range frames {
			for rest := f; len(rest) > 0; {
				n := min(chunk, len(rest))
				z.follow(rest[:n])
				rest = rest[n:]
				if z.frame != i+1 || z.start != off || z.state == zsLost {
					t.Fatalf("chunk %d, frame %d: zstdFrames at frame %d start %d state %d, want frame %d start %d", chunk, i+1, z.frame, z.start, z.state, i+1, off)
				}
			}
			off += int64(len(f))
			if z.state != zsMagic || z.off != off {
				t.Fatalf("chunk %d: after frame %d, state %d offset %d, want the next magic at %d", chunk, i+1, z.state, z.off, off)
			}
		}
		// What the decoder reads, chunk bytes at a time.
		z = &zstdFrames{r: bytes.NewReader(file)}
		var got []byte
		buf := make([]byte, chunk)
		for {
			n, err := z.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("chunk %d: passed %d bytes, want the %d of the frames that are not skippable", chunk, len(got), len(want))
		}
	}
	// A stream that ends two bytes into a magic number: the two bytes reach
	// the decoder, which reports a truncated stream.
	cut := append(slices.Clone(frames[0]), 0x28, 0xb5)
	z := &zstdFrames{r: bytes.NewReader(cut)}
	got, err := io.ReadAll(z)
	if err != nil || !bytes.Equal(got, cut) {
		t.Fatalf("cut magic: passed %d of %d bytes, %v", len(got), len(cut), err)
	}
	dec, _ := zstd.NewReader(&zstdFrames{r: bytes.NewReader(cut)})
	defer dec.Close()
	if _, err := io.ReadAll(dec); err == nil {
		t.Error("a stream cut inside a magic number decoded without an error")
	}
}

// TestPzstd: a log compressed by pzstd (a skippable frame before each
// frame; frames of 4 MiB of input with -p 2 here) reads as the plain log.
// Skipped without pzstd, unless CRAWLAUDIT_REQUIRE_TOOLS is set (.ci/run
// installs it).
func TestPzstd(t *testing.T) {
	pzstd, err := exec.LookPath("pzstd")
	if err != nil {
		if os.Getenv("CRAWLAUDIT_REQUIRE_TOOLS") != "" {
			t.Fatal("pzstd is not installed (CRAWLAUDIT_REQUIRE_TOOLS is set)")
		}
		t.Skip("pzstd is not installed")
	}
	dir := t.TempDir()
	text := tsvLog(150000) // about 10 MB: three frames
	plain := writeFile(t, dir, "access.log", []byte(text))
	out, err := exec.Command(pzstd, "-q", "-p", "2", plain, "-o", plain+".zst").CombinedOutput()
	if err != nil {
		t.Fatalf("pzstd: %v\n%s", err, out)
	}
	data, err := os.ReadFile(plain + ".zst")
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 4 || data[0] != 0x50 || data[1] != 0x2a {
		t.Fatalf("pzstd wrote % x...: no skippable frame first", data[:min(8, len(data))])
	}
	wantRows, _, wantAcc, err := collect(t, []string{plain}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _, acc, err := collect(t, []string{plain + ".zst"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	f := acc.PerFile[0]
	if f.Compression != CompressionZstd || f.Integrity != "" || f.Lines != wantAcc.PerFile[0].Lines || f.Parsed != 150000 {
		t.Fatalf("compression %q integrity %q lines %d parsed %d; want zstd, intact, %d lines, 150000 parsed",
			f.Compression, f.Integrity, f.Lines, f.Parsed, wantAcc.PerFile[0].Lines)
	}
	if len(rows) != len(wantRows) {
		t.Fatalf("%d rows from the pzstd file, %d from the plain one", len(rows), len(wantRows))
	}
	for i := range rows {
		rows[i].File = wantRows[i].File // the only difference: the name
	}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Error("the rows of the pzstd file differ from the plain file's")
	}
}

// FuzzZstdFrames: whatever the bytes, zstdFrames follows them to the end
// without a panic, and the decoder reading through it says what it says
// reading the bytes directly (but for the "Skipping frame" it would
// print): the same content when it succeeds, an error when it fails
// (a stream cut inside a skippable frame included).
func FuzzZstdFrames(f *testing.F) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	one := enc.EncodeAll([]byte(memberText(0, 50)), nil)
	two := enc.EncodeAll([]byte("x\n"), nil)
	enc.Close()
	skip := []byte{0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3}
	f.Add(one)
	f.Add(append(slices.Clone(skip), one...))
	f.Add(append(append(slices.Clone(one), skip...), two...))
	f.Add(append(slices.Clone(one), skip[:6]...)) // cut in a skippable frame's size
	f.Add(append(slices.Clone(one), skip[:9]...)) // cut in its content
	f.Add(append(slices.Clone(one), 0x28, 0xb5))  // cut in a magic number
	f.Add(append(slices.Clone(skip), 0xff, 0xfe)) // not zstd after it
	f.Fuzz(func(t *testing.T, data []byte) {
		decode := func(r io.Reader) ([]byte, error) {
			dec, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<20), zstd.WithDecoderMaxMemory(16<<20))
			if err != nil {
				return nil, err
			}
			defer dec.Close()
			return io.ReadAll(dec)
		}
		z := &zstdFrames{r: bytes.NewReader(data)}
		got, gotErr := decode(z)
		if _, err := io.Copy(io.Discard, z); z.off != int64(len(data)) && err == nil {
			t.Fatalf("followed %d of %d bytes", z.off, len(data))
		}
		// Skippable frames are the only thing dropped: the direct decoder
		// says the same (it prints a line for each skippable frame).
		want, wantErr := decode(bytes.NewReader(data))
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("through zstdFrames: %v; directly: %v", gotErr, wantErr)
		}
		if gotErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("through zstdFrames %d bytes, directly %d", len(got), len(want))
		}
	})
}
