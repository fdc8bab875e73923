package endgame

// A board of n seeds is stored as one byte holding its two bounds lo <= hi
// (see the package documentation). Both have the parity of n (the mover's
// and the opponent's gains add up to n), so a = (lo+n)/2 and g = (hi-lo)/2
// are whole numbers with a+g <= n, and the pairs are numbered g by g:
// code = a + g(n+1) - g(g-1)/2. For n <= MaxSeedsLimit every code is below 256.

// encode returns the byte of the bounds lo <= hi of a board of n seeds.
func encode(lo, hi, n int) byte {
	a, g := (lo+n)/2, (hi-lo)/2
	return byte(a + g*(n+1) - g*(g-1)/2)
}

// bounds is a decoded byte: the interval [lo, hi].
type bounds struct{ lo, hi int8 }

// decoder turns the bytes of each level back into bounds.
type decoder [MaxSeedsLimit + 1][256]bounds

func newDecoder() *decoder {
	d := &decoder{}
	for n := range d {
		for g := 0; g <= n; g++ {
			for a := 0; a+g <= n; a++ {
				lo := 2*a - n
				d[n][encode(lo, lo+2*g, n)] = bounds{int8(lo), int8(lo + 2*g)}
			}
		}
	}
	return d
}
