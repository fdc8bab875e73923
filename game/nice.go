package game

// threadNice returns the nice value of a worker's thread in a process at
// nice value base: nice below it (a higher value), at most 19, the lowest
// priority. A nice value set on a thread is absolute, so the workers of a
// process started at nice 19 with nice 10 would outrank its requests.
func threadNice(base, nice int) int { return min(base+nice, 19) }
