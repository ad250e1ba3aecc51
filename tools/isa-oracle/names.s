// Names objdump -d (binutils 2.40) gives branch and ADRP targets, for SymbolNamesOracleTest. Built with
//   aarch64-linux-gnu-as -o names.o names.s
//   aarch64-linux-gnu-ld -T names.ld --no-warn-rwx-segments -o names.elf names.o
// (names.ld places .xplt, .xgot and .xgotplt as the output sections .plt, .got and .got.plt, as a static glibc
// program has them)
	.text
	.globl _start
	.type _start,%function
_start:
	bl	myinit          // a function and a label of another section at one address: the function
	bl	myinit+0x20     // in .plt, which has no symbol of its own: objdump keeps its section symbol, <.plt+0x10>
	adrp	x16, got_slot   // the page of a slot of .got.plt, past .got's label: <.got.plt+0x18>
	bl	asec            // a label and an absolute symbol at one address: by name, not the absolute one first
	bl	zlow            // labels of two sections at one address: by name, not by section index
	bl	asec+0x1ff8     // into a section without symbols: the nearest symbol below (<ahigh+0x1000>); its listed
	                        // addresses are named after the section (<.nosym+0x4>), as --prefix-addresses names them
	ret
	.size _start, .-_start

	.section .tbl,"a",%progbits
	.quad 0
	.quad 0
tbl_end:                        // where .init starts, as __rela_iplt_end is where _init is in static glibc
	.section .init,"ax",%progbits
	.type myinit,%function
	.globl myinit
myinit:
	nop
	nop
	nop
	ret
	.size myinit, 16
	.section .xplt,"ax",%progbits
	nop
	nop
	nop
	nop
	nop
	ret
	.section .bbb,"ax",%progbits
	nop
	nop
	nop
asec:	ret
	.set zabs, 0x40200c
	.section .ccc,"ax",%progbits
	nop
zlow:
	.section .ddd,"ax",%progbits
ahigh:	ret
	.section .nosym,"ax",%progbits
	nop
	ret
	.section .xgot,"aw",%progbits
	.type got_base,%object
got_base:
	.quad 0
	.size got_base, 8
	.section .xgotplt,"aw",%progbits
	.quad 0
	.quad 0
	.quad 0
	.quad 0
got_slot:
	.quad 0
