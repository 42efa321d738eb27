package experiments

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A result archive is a read-only, compact form of many results: a gzip
// stream of JSON lines, one result per line in key order, the same fields
// as a result file (Result), and a gzip header without a name or a time, so
// the same results always give the same bytes. Archives are what the
// repository publishes (repro publish). A store directory may hold archives
// (files ending in ArchiveExt) beside result files: Load, Inspect and
// LoadAll read a run's result file if there is one, else its line of an
// archive, so repro report, compare, list and run see archived results as
// results (run computes only what neither holds).

// ArchiveExt is the file name ending of a result archive.
const ArchiveExt = ".jsonl.gz"

// WriteArchive writes results to w as an archive, in key order. Every
// result is checked (Check) first; two results of one key are an error.
func WriteArchive(w io.Writer, results []*Result) error {
	rs := slices.Clone(results)
	slices.SortFunc(rs, func(a, b *Result) int { return strings.Compare(a.Key, b.Key) })
	for i, r := range rs {
		if err := Check(r, r.Key); err != nil {
			return fmt.Errorf("refusing to archive result %s: %w", r.Key, err)
		}
		if i > 0 && rs[i-1].Key == r.Key {
			return fmt.Errorf("two results of run %s", r.Key)
		}
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	for _, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("encoding result %s: %w", r.Key, err)
		}
		if _, err := zw.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return zw.Close()
}

// MaxArchiveBytes is the most bytes an archive may hold uncompressed:
// hundreds of times the published ones (the largest holds 0.6 MB of
// lines, the whole full tier 5 MB), and few enough that their results fit
// in memory.
const MaxArchiveBytes = 256 << 20

// ReadArchive reads an archive made by WriteArchive and checks every result
// as Load checks a file (Decode); the first bad line is an error that names
// it. Keys must be strictly increasing, as WriteArchive writes them. It
// reads line by line: a line longer than MaxResultBytes, or more than
// MaxArchiveBytes in all, is an error as soon as the cap is passed (a
// small gzip stream may inflate to gigabytes).
func ReadArchive(r io.Reader) ([]*Result, error) {
	return readArchive(r, MaxResultBytes, MaxArchiveBytes)
}

// readArchive is ReadArchive with a cap of lineCap bytes per line and
// totalCap in all.
func readArchive(r io.Reader, lineCap int, totalCap int64) ([]*Result, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip stream: %v", err)
	}
	br := bufio.NewReaderSize(zr, 64<<10)
	var (
		out   []*Result
		total int64
		b     []byte
	)
	for line := 1; ; line++ {
		b, err = readLine(br, b[:0], lineCap)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if total += int64(len(b)); total > totalCap {
			return nil, fmt.Errorf("line %d: more than %d bytes uncompressed, above the cap of an archive", line, totalCap)
		}
		res, err := decodeLine(b)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if n := len(out); n > 0 && out[n-1].Key >= res.Key {
			return nil, fmt.Errorf("line %d: key %s after %s (want increasing keys)", line, res.Key, out[n-1].Key)
		}
		out = append(out, res)
	}
}

// readLine appends to buf the next line of br, without its newline; the
// last line may lack one. io.EOF means there is no line left; a line of
// more than max bytes is an error, and no more than max bytes of it are
// read.
func readLine(br *bufio.Reader, buf []byte, max int) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 { // +1: the newline
			return nil, fmt.Errorf("longer than %d bytes, above the cap of one result", max)
		}
		buf = append(buf, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(buf) > 0:
			return buf, nil
		case err == io.EOF:
			return nil, io.EOF
		case err != nil:
			return nil, fmt.Errorf("reading: %v (a truncated or damaged archive)", err)
		}
		return bytes.TrimSuffix(buf, []byte("\n")), nil
	}
}

// decodeLine decodes and checks one line of an archive, the result of the
// key it holds.
func decodeLine(b []byte) (*Result, error) {
	var head struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	return Decode(b, head.Key)
}

// SaveArchive writes results atomically to the archive file path (temp +
// rename in its directory), which must end in ArchiveExt.
func SaveArchive(path string, results []*Result) error {
	if !strings.HasSuffix(path, ArchiveExt) {
		return fmt.Errorf("archive %s: the name must end in %s", path, ArchiveExt)
	}
	var buf bytes.Buffer
	if err := WriteArchive(&buf, results); err != nil {
		return err
	}
	return WriteFile(path, buf.Bytes())
}

// writeAtomic writes b to path through a temporary file in its directory
// whose name starts with prefix (see IsTemp), then a rename, so that a
// reader sees the old file or the new one, never a part.
func writeAtomic(path, prefix string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	merr := f.Chmod(0o644) // CreateTemp makes 0600; results are shared (e.g. by a cluster's group)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteFile writes b to path atomically (a temporary file in the same
// directory, then a rename), creating the directory if needed.
func WriteFile(path string, b []byte) error {
	return writeAtomic(path, ".tmp-"+filepath.Base(path)+"-", b)
}

// archiveIndex is the results of a directory's archives by key, read once
// per process for a given set of archive files (names, sizes and times).
type archiveIndex struct {
	stamp   string
	results map[string]*Result
	err     error
}

var (
	archiveMu    sync.Mutex
	archiveCache = map[string]*archiveIndex{}
)

// IsArchive reports whether path is an archive file (a regular file whose
// name ends in ArchiveExt) rather than a directory of results.
func IsArchive(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && strings.HasSuffix(path, ArchiveExt)
}

// Archives lists the archive files of dir, sorted; dir may itself be an
// archive file, which is then the one listed.
func Archives(dir string) ([]string, error) {
	if IsArchive(dir) {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return archivesIn(dir, entries), nil
}

// archivesIn returns the archive files among dir's entries, in their order
// (os.ReadDir sorts them).
func archivesIn(dir string, entries []fs.DirEntry) []string {
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ArchiveExt) && !IsTemp(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// archived returns the result of key from dir's archives, or nil. An
// archive that cannot be read, or two archives that disagree about a key,
// make every lookup in dir an error that says which and why.
func archived(dir, key string) (*Result, error) {
	names, err := Archives(dir)
	if err != nil {
		return nil, err
	}
	results, err := indexArchives(dir, names)
	return results[key], err
}

// indexArchives returns the results of names, the archives of dir
// (Archives), by key, or the error of reading them (see archived).
func indexArchives(dir string, names []string) (map[string]*Result, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var stamp strings.Builder
	for _, n := range names {
		st, err := os.Lstat(n)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&stamp, "%s %d %d\n", n, st.Size(), st.ModTime().UnixNano())
	}
	archiveMu.Lock()
	defer archiveMu.Unlock()
	ix := archiveCache[dir]
	if ix == nil || ix.stamp != stamp.String() {
		ix = &archiveIndex{stamp: stamp.String()}
		ix.results, ix.err = readArchives(names)
		archiveCache[dir] = ix
	}
	return ix.results, ix.err
}

// readArchives reads the archives and indexes their results by key.
func readArchives(names []string) (map[string]*Result, error) {
	out := map[string]*Result{}
	from := map[string]string{}
	for _, n := range names {
		f, _, err := OpenRegular(n)
		if err != nil && !errors.Is(err, ErrNotRegular) {
			return nil, fmt.Errorf("reading result archive %s: %w", n, err)
		}
		var rs []*Result
		if err == nil {
			rs, err = ReadArchive(f)
			f.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("bad result archive %s: %v (every lookup in its directory stops on it: move it away or restore it)", n, err)
		}
		for _, r := range rs {
			if prev, ok := from[r.Key]; ok {
				return nil, fmt.Errorf("result archives %s and %s both hold run %s; keep it in one", prev, n, r.Key)
			}
			from[r.Key] = n
			out[r.Key] = r
		}
	}
	return out, nil
}
