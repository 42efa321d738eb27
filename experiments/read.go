package experiments

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Every file of a store is read through ReadRegular: it is opened only if
// it is a regular file, without following a link and without blocking (a
// named pipe opened for reading would wait for a writer), and never more
// than a cap is read, so that no file in the directory can hang a reader or
// make it allocate without bound.

// ErrNotRegular is the error of a file that is not a regular file: a
// directory, a symbolic link, a named pipe, a socket or a device.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error of a file larger than the cap it is read with.
var ErrTooLarge = errors.New("too large")

// ReadRegular returns the contents of the regular file path, at most max
// bytes. A file that is not a regular file (checked with Lstat before it is
// opened, and on the opened file again) is an error wrapping ErrNotRegular
// that says what it is; a file of more than max bytes is one wrapping
// ErrTooLarge, and is not read. Other errors are those of os.Lstat and
// os.OpenFile (fs.ErrNotExist for a missing file). No error holds path:
// the caller names the file.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, tooLarge(size, max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, UnwrapPath(err)
	}
	if int64(len(b)) > max { // it grew since the Stat
		return nil, tooLarge(int64(len(b)), max)
	}
	return b, nil
}

// OpenRegular opens the regular file path for reading and returns it with
// its size; errors are those of ReadRegular but ErrTooLarge. Read it with
// a cap: it may grow.
func OpenRegular(path string) (*os.File, int64, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, 0, UnwrapPath(err)
	}
	if !st.Mode().IsRegular() {
		return nil, 0, notRegular(st.Mode())
	}
	// O_NOFOLLOW: a link put in its place since the Lstat fails (ELOOP);
	// O_NONBLOCK: so does waiting, should a pipe have taken its place.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, 0, notRegular(fs.ModeSymlink)
	}
	if err != nil {
		return nil, 0, UnwrapPath(err)
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, 0, UnwrapPath(err)
		}
		return nil, 0, notRegular(st.Mode())
	}
	return f, st.Size(), nil
}

// notRegular returns the ErrNotRegular error of a file of mode m.
func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%w: %s", ErrNotRegular, FileKind(m))
}

// tooLarge returns the ErrTooLarge error of a file of size bytes read with
// the cap max.
func tooLarge(size, max int64) error {
	return fmt.Errorf("%w: %d bytes or more, above the cap of %d bytes", ErrTooLarge, size, max)
}

// FileKind names what a file of mode m is: "a directory", "a named pipe
// (FIFO)".
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// UnwrapPath returns the error inside a *fs.PathError (whose message would
// repeat the path the caller names).
func UnwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}
