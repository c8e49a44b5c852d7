"""DEFLATE exactly as Go's `compress/flate` writes it at the default level (6).

`base64gzip` must give Terraform's bytes, and zlib's encoder picks different matches and
Huffman tables than Go's. This follows Go's algorithm: lazy matching over hash chains
(good 8, lazy 16, nice 128, chain 128), blocks of at most 16384 tokens, and for each block
the smallest of stored, fixed-Huffman and dynamic-Huffman encodings, with Go's length-limited
Huffman code construction (ties broken by symbol value). `go_deflate(data)` gives the stream
after one Write, a Flush and Close, as `gzip.Writer` produces it in Terraform.
"""

from __future__ import annotations

WINDOW_SIZE = 1 << 15
WINDOW_MASK = WINDOW_SIZE - 1
MIN_MATCH = 4
MAX_MATCH = 258
MAX_BLOCK_TOKENS = 1 << 14
MAX_STORE_BLOCK = 65535
HASH_BITS = 17
HASH_MASK = (1 << HASH_BITS) - 1
MAX_HASH_OFFSET = 1 << 24
GOOD, LAZY, NICE, CHAIN = 8, 16, 128, 128
MATCH_TYPE = 1 << 30
END_BLOCK = 256
LENGTH_CODES_START = 257
MAX_NUM_LIT = 286
OFFSET_CODE_COUNT = 30
CODEGEN_CODE_COUNT = 19
BAD_CODE = 255
MAX_INT32 = (1 << 31) - 1

LENGTH_EXTRA_BITS = (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                     5, 5, 5, 5, 0)
LENGTH_BASE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80,
               96, 112, 128, 160, 192, 224, 255)
OFFSET_EXTRA_BITS = (0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                     11, 11, 12, 12, 13, 13)
OFFSET_BASE = (0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0006, 0x0008, 0x000C, 0x0010, 0x0018,
               0x0020, 0x0030, 0x0040, 0x0060, 0x0080, 0x00C0, 0x0100, 0x0180, 0x0200, 0x0300,
               0x0400, 0x0600, 0x0800, 0x0C00, 0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000)
CODEGEN_ORDER = (16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15)

_LENGTH_CODES = [0] * 256
for _code in range(28):
    for _x in range(LENGTH_BASE[_code], LENGTH_BASE[_code] + (1 << LENGTH_EXTRA_BITS[_code])):
        _LENGTH_CODES[_x] = _code
_LENGTH_CODES[255] = 28


def offset_code(off: int) -> int:
    """The distance code for a match offset (distance - 1)."""
    code = 0
    while code + 1 < OFFSET_CODE_COUNT and OFFSET_BASE[code + 1] <= off:
        code += 1
    return code


def reverse_bits(number: int, length: int) -> int:
    return int(format(number, f"0{length}b")[::-1], 2) if length else 0


class HuffmanEncoder:
    """Go's huffmanEncoder: code lengths limited to `max_bits`, canonical codes, bit-reversed."""

    def __init__(self, size: int) -> None:
        self.code = [0] * size
        self.len = [0] * size

    def bit_length(self, freq: list[int]) -> int:
        return sum(f * self.len[i] for i, f in enumerate(freq) if f)

    def generate(self, freq: list[int], max_bits: int) -> None:
        nodes: list[tuple[int, int]] = []  # (literal, freq)
        for i, f in enumerate(freq):
            if f:
                nodes.append((i, f))
            else:
                self.len[i] = 0
        if len(nodes) <= 2:
            for i, (lit, _f) in enumerate(nodes):
                self.code[lit] = i
                self.len[lit] = 1
            return
        nodes.sort(key=lambda n: (n[1], n[0]))
        self._assign(self._bit_counts(nodes, max_bits), nodes)

    @staticmethod
    def _bit_counts(nodes: list[tuple[int, int]], max_bits: int) -> list[int]:
        n = len(nodes)
        freqs = [f for _l, f in nodes] + [MAX_INT32]
        max_bits = min(max_bits, n - 1)
        # per level: [last_freq, next_char_freq, next_pair_freq, needed]
        levels = [[0, 0, 0, 0] for _ in range(17)]
        leaf = [[0] * 17 for _ in range(17)]
        for level in range(1, max_bits + 1):
            levels[level] = [freqs[1], freqs[2], freqs[0] + freqs[1], 0]
            leaf[level][level] = 2
            if level == 1:
                levels[level][2] = MAX_INT32
        levels[max_bits][3] = 2 * n - 4
        level = max_bits
        while True:
            lv = levels[level]
            if lv[2] == MAX_INT32 and lv[1] == MAX_INT32:
                lv[3] = 0
                levels[level + 1][2] = MAX_INT32
                level += 1
                continue
            prev_freq = lv[0]
            if lv[1] < lv[2]:
                count = leaf[level][level] + 1
                lv[0] = lv[1]
                leaf[level][level] = count
                lv[1] = freqs[count]
            else:
                lv[0] = lv[2]
                leaf[level][:level] = leaf[level - 1][:level]
                levels[level - 1][3] = 2
            lv[3] -= 1
            if lv[3] == 0:
                if level == max_bits:
                    break
                levels[level + 1][2] = prev_freq + lv[0]
                level += 1
            else:
                while levels[level - 1][3] > 0:
                    level -= 1
        counts = leaf[max_bits]
        bit_count = [0] * (max_bits + 1)
        bits = 1
        for level in range(max_bits, 0, -1):
            bit_count[bits] = counts[level] - counts[level - 1]
            bits += 1
        return bit_count

    def _assign(self, bit_count: list[int], nodes: list[tuple[int, int]]) -> None:
        code = 0
        for n, bits in enumerate(bit_count):
            code <<= 1
            if n == 0 or bits == 0:
                continue
            chunk = sorted(nodes[len(nodes) - bits :])
            for lit, _f in chunk:
                self.code[lit] = reverse_bits(code, n)
                self.len[lit] = n
                code += 1
            nodes = nodes[: len(nodes) - bits]


def _fixed_literal() -> HuffmanEncoder:
    h = HuffmanEncoder(MAX_NUM_LIT)
    for ch in range(MAX_NUM_LIT):
        if ch < 144:
            bits, size = ch + 48, 8
        elif ch < 256:
            bits, size = ch + 400 - 144, 9
        elif ch < 280:
            bits, size = ch - 256, 7
        else:
            bits, size = ch + 192 - 280, 8
        h.code[ch] = reverse_bits(bits, size)
        h.len[ch] = size
    return h


def _fixed_offset() -> HuffmanEncoder:
    h = HuffmanEncoder(OFFSET_CODE_COUNT)
    for i in range(OFFSET_CODE_COUNT):
        h.code[i] = reverse_bits(i, 5)
        h.len[i] = 5
    return h


FIXED_LITERAL = _fixed_literal()
FIXED_OFFSET = _fixed_offset()


class BitWriter:
    """Go's huffmanBitWriter: block encoding choice and LSB-first bit packing."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.bits = 0
        self.nbits = 0
        self.literal_freq = [0] * MAX_NUM_LIT
        self.offset_freq = [0] * OFFSET_CODE_COUNT
        self.codegen: list[int] = []
        self.codegen_freq = [0] * CODEGEN_CODE_COUNT
        self.literal_enc = HuffmanEncoder(MAX_NUM_LIT)
        self.offset_enc = HuffmanEncoder(OFFSET_CODE_COUNT)
        self.codegen_enc = HuffmanEncoder(CODEGEN_CODE_COUNT)

    def write_bits(self, value: int, nb: int) -> None:
        self.bits |= value << self.nbits
        self.nbits += nb
        while self.nbits >= 8:
            self.out.append(self.bits & 0xFF)
            self.bits >>= 8
            self.nbits -= 8

    def flush(self) -> None:
        if self.nbits:
            self.out.append(self.bits & 0xFF)
        self.bits = 0
        self.nbits = 0

    def write_stored_header(self, length: int, eof: bool) -> None:
        self.write_bits(1 if eof else 0, 3)
        self.flush()
        self.write_bits(length, 16)
        self.write_bits(~length & 0xFFFF, 16)

    def _generate_codegen(self, num_lit: int, num_off: int) -> None:
        self.codegen_freq = [0] * CODEGEN_CODE_COUNT
        sizes = self.literal_enc.len[:num_lit] + self.offset_enc.len[:num_off] + [BAD_CODE]
        out: list[int] = []
        freq = self.codegen_freq
        size = sizes[0]
        count = 1
        in_index = 1
        while size != BAD_CODE:
            next_size = sizes[in_index]
            in_index += 1
            if next_size == size:
                count += 1
                continue
            if size != 0:
                out.append(size)
                freq[size] += 1
                count -= 1
                while count >= 3:
                    n = min(6, count)
                    out += [16, n - 3]
                    freq[16] += 1
                    count -= n
            else:
                while count >= 11:
                    n = min(138, count)
                    out += [18, n - 11]
                    freq[18] += 1
                    count -= n
                if count >= 3:
                    out += [17, count - 3]
                    freq[17] += 1
                    count = 0
            out += [size] * count
            freq[size] += count
            size = next_size
            count = 1
        out.append(BAD_CODE)
        self.codegen = out

    def _dynamic_size(self, extra_bits: int) -> tuple[int, int]:
        num_codegens = CODEGEN_CODE_COUNT
        while num_codegens > 4 and self.codegen_freq[CODEGEN_ORDER[num_codegens - 1]] == 0:
            num_codegens -= 1
        f = self.codegen_freq
        header = (3 + 5 + 5 + 4 + 3 * num_codegens + self.codegen_enc.bit_length(f)
                  + f[16] * 2 + f[17] * 3 + f[18] * 7)
        size = (header + self.literal_enc.bit_length(self.literal_freq)
                + self.offset_enc.bit_length(self.offset_freq) + extra_bits)
        return size, num_codegens

    def _index_tokens(self, tokens: list[int]) -> tuple[int, int]:
        lit = self.literal_freq = [0] * MAX_NUM_LIT
        off = self.offset_freq = [0] * OFFSET_CODE_COUNT
        for t in tokens:
            if t < MATCH_TYPE:
                lit[t] += 1
                continue
            lit[LENGTH_CODES_START + _LENGTH_CODES[(t >> 22) & 0xFF]] += 1
            off[offset_code(t & 0x3FFFFF)] += 1
        num_lit = MAX_NUM_LIT
        while lit[num_lit - 1] == 0:
            num_lit -= 1
        num_off = OFFSET_CODE_COUNT
        while num_off > 0 and off[num_off - 1] == 0:
            num_off -= 1
        if num_off == 0:
            off[0] = 1
            num_off = 1
        self.literal_enc.generate(lit, 15)
        self.offset_enc.generate(off, 15)
        return num_lit, num_off

    def write_block(self, tokens: list[int], eof: bool, data: bytes | None) -> None:
        tokens = [*tokens, END_BLOCK]
        num_lit, num_off = self._index_tokens(tokens)
        extra = 0
        storable = data is not None and len(data) <= MAX_STORE_BLOCK
        stored_size = (len(data) + 5) * 8 if data is not None and storable else 0
        if storable:
            for code in range(LENGTH_CODES_START + 8, num_lit):
                extra += self.literal_freq[code] * LENGTH_EXTRA_BITS[code - LENGTH_CODES_START]
            for code in range(4, num_off):
                extra += self.offset_freq[code] * OFFSET_EXTRA_BITS[code]
        lit_enc, off_enc = FIXED_LITERAL, FIXED_OFFSET
        size = (3 + FIXED_LITERAL.bit_length(self.literal_freq)
                + FIXED_OFFSET.bit_length(self.offset_freq) + extra)
        self._generate_codegen(num_lit, num_off)
        self.codegen_enc.generate(self.codegen_freq, 7)
        dyn_size, num_codegens = self._dynamic_size(extra)
        if dyn_size < size:
            size = dyn_size
            lit_enc, off_enc = self.literal_enc, self.offset_enc
        if storable and data is not None and stored_size < size:
            self.write_stored_header(len(data), eof)
            self.flush()
            self.out += data
            return
        if lit_enc is FIXED_LITERAL:
            self.write_bits(3 if eof else 2, 3)
        else:
            self._write_dynamic_header(num_lit, num_off, num_codegens, eof)
        self._write_tokens(tokens, lit_enc, off_enc)

    def _write_dynamic_header(self, num_lit: int, num_off: int, num_cg: int, eof: bool) -> None:
        self.write_bits(5 if eof else 4, 3)
        self.write_bits(num_lit - 257, 5)
        self.write_bits(num_off - 1, 5)
        self.write_bits(num_cg - 4, 4)
        enc = self.codegen_enc
        for i in range(num_cg):
            self.write_bits(enc.len[CODEGEN_ORDER[i]], 3)
        cg = self.codegen
        i = 0
        while True:
            word = cg[i]
            i += 1
            if word == BAD_CODE:
                break
            self.write_bits(enc.code[word], enc.len[word])
            if word in (16, 17, 18):
                self.write_bits(cg[i], {16: 2, 17: 3, 18: 7}[word])
                i += 1

    def _write_tokens(self, tokens: list[int], le: HuffmanEncoder, oe: HuffmanEncoder) -> None:
        for t in tokens:
            if t < MATCH_TYPE:
                self.write_bits(le.code[t], le.len[t])
                continue
            length = (t >> 22) & 0xFF
            lcode = _LENGTH_CODES[length]
            self.write_bits(le.code[lcode + LENGTH_CODES_START], le.len[lcode + LENGTH_CODES_START])
            if LENGTH_EXTRA_BITS[lcode]:
                self.write_bits(length - LENGTH_BASE[lcode], LENGTH_EXTRA_BITS[lcode])
            offset = t & 0x3FFFFF
            ocode = offset_code(offset)
            self.write_bits(oe.code[ocode], oe.len[ocode])
            if OFFSET_EXTRA_BITS[ocode]:
                self.write_bits(offset - OFFSET_BASE[ocode], OFFSET_EXTRA_BITS[ocode])


def _hash4(w: bytearray, i: int) -> int:
    v = (w[i] << 24) | (w[i + 1] << 16) | (w[i + 2] << 8) | w[i + 3]
    return ((v * 0x1E35A7BD) & 0xFFFFFFFF) >> (32 - HASH_BITS)


class Compressor:
    """Go's compressor at level 6 (lazy matching, `deflate` step)."""

    def __init__(self) -> None:
        self.w = BitWriter()
        self.window = bytearray(2 * WINDOW_SIZE)
        self.hash_head = [0] * (1 << HASH_BITS)
        self.hash_prev = [0] * WINDOW_SIZE
        self.hash_offset = 1
        self.chain_head = -1
        self.index = 0
        self.window_end = 0
        self.block_start = 0
        self.byte_available = False
        self.tokens: list[int] = []
        self.length = MIN_MATCH - 1
        self.offset = 0
        self.max_insert_index = 0
        self.sync = False

    def _fill(self, b: bytes) -> int:
        if self.index >= 2 * WINDOW_SIZE - (MIN_MATCH + MAX_MATCH):
            self.window[:WINDOW_SIZE] = self.window[WINDOW_SIZE:]
            self.index -= WINDOW_SIZE
            self.window_end -= WINDOW_SIZE
            self.block_start = self.block_start - WINDOW_SIZE if self.block_start >= WINDOW_SIZE else MAX_INT32
            self.hash_offset += WINDOW_SIZE
            if self.hash_offset > MAX_HASH_OFFSET:
                delta = self.hash_offset - 1
                self.hash_offset -= delta
                self.chain_head -= delta
                self.hash_prev = [v - delta if v > delta else 0 for v in self.hash_prev]
                self.hash_head = [v - delta if v > delta else 0 for v in self.hash_head]
        n = min(len(b), len(self.window) - self.window_end)
        self.window[self.window_end : self.window_end + n] = b[:n]
        self.window_end += n
        return n

    def _write_block(self, index: int) -> None:
        if index > 0:
            data = bytes(self.window[self.block_start : index]) if self.block_start <= index else None
            self.block_start = index
            self.w.write_block(self.tokens, False, data)
        self.tokens = []

    def _find_match(self, pos: int, prev_head: int, prev_length: int, lookahead: int) -> tuple[int, int, bool]:
        win = self.window
        look = min(MAX_MATCH, lookahead)
        nice = min(look, NICE)
        tries = CHAIN
        length = prev_length
        offset = 0
        ok = False
        if length >= GOOD:
            tries >>= 2
        w_end = win[pos + length]
        min_index = pos - WINDOW_SIZE
        i = prev_head
        while tries > 0:
            if w_end == win[i + length]:
                n = 0
                while n < look and win[i + n] == win[pos + n]:
                    n += 1
                if n > length and (n > MIN_MATCH or pos - i <= 4096):
                    length, offset, ok = n, pos - i, True
                    if n >= nice:
                        break
                    w_end = win[pos + n]
            if i == min_index:
                break
            i = self.hash_prev[i & WINDOW_MASK] - self.hash_offset
            if i < min_index or i < 0:
                break
            tries -= 1
        return length, offset, ok

    def _insert(self, index: int) -> None:
        h = _hash4(self.window, index) & HASH_MASK
        self.hash_prev[index & WINDOW_MASK] = self.hash_head[h]
        self.hash_head[h] = index + self.hash_offset

    def step(self) -> None:
        if self.window_end - self.index < MIN_MATCH + MAX_MATCH and not self.sync:
            return
        self.max_insert_index = self.window_end - (MIN_MATCH - 1)
        while True:
            lookahead = self.window_end - self.index
            if lookahead < MIN_MATCH + MAX_MATCH:
                if not self.sync:
                    break
                if lookahead == 0:
                    if self.byte_available:
                        self.tokens.append(self.window[self.index - 1])
                        self.byte_available = False
                    if self.tokens:
                        self._write_block(self.index)
                    break
            if self.index < self.max_insert_index:
                h = _hash4(self.window, self.index) & HASH_MASK
                self.chain_head = self.hash_head[h]
                self.hash_prev[self.index & WINDOW_MASK] = self.chain_head
                self.hash_head[h] = self.index + self.hash_offset
            prev_length, prev_offset = self.length, self.offset
            self.length, self.offset = MIN_MATCH - 1, 0
            min_index = max(self.index - WINDOW_SIZE, 0)
            if (self.chain_head - self.hash_offset >= min_index and lookahead > prev_length
                    and prev_length < LAZY):
                n, off, ok = self._find_match(
                    self.index, self.chain_head - self.hash_offset, MIN_MATCH - 1, lookahead
                )
                if ok:
                    self.length, self.offset = n, off
            if prev_length >= MIN_MATCH and self.length <= prev_length:
                self.tokens.append(MATCH_TYPE | ((prev_length - 3) << 22) | (prev_offset - 1))
                new_index = self.index + prev_length - 1
                self.index += 1
                while self.index < new_index:
                    if self.index < self.max_insert_index:
                        self._insert(self.index)
                    self.index += 1
                self.byte_available = False
                self.length = MIN_MATCH - 1
                if len(self.tokens) == MAX_BLOCK_TOKENS:
                    self._write_block(self.index)
            else:
                if self.byte_available:
                    i = self.index - 1
                    self.tokens.append(self.window[i])
                    if len(self.tokens) == MAX_BLOCK_TOKENS:
                        self._write_block(i + 1)
                self.index += 1
                self.byte_available = True

    def write(self, data: bytes) -> None:
        while data:
            self.step()
            data = data[self._fill(data) :]

    def sync_flush(self) -> None:
        self.sync = True
        self.step()
        self.w.write_stored_header(0, False)
        self.w.flush()
        self.sync = False

    def close(self) -> None:
        self.sync = True
        self.step()
        self.w.write_stored_header(0, True)
        self.w.flush()


def go_deflate(data: bytes) -> bytes:
    """The raw DEFLATE stream Go writes for Write(data), Flush(), Close() at level 6."""
    c = Compressor()
    c.write(data)
    c.sync_flush()
    c.close()
    return bytes(c.w.out)
