@ Armv8.1-M low-overhead loop and branch-future encodings (DDI 0553): WLS, WLSTP, DLS, DLSTP, LE, LETP,
@ LCTP, BF, BFX, BFL, BFLX and BFCSEL with branch points and targets near and far, forwards and backwards.
@ Only assembled and disassembled by generate.py (never executed). Generated once (fixed seed) and kept as it is.
    .syntax unified
    .arch armv8.1-m.main
    .arch_extension mve
    .thumb
    .text
    .global rare_v81m
    .thumb_func
rare_v81m:
    dls lr, r8
.L1:
    .rept 1
    adds r0, #1
    .endr
    le lr, .L1
.L2:
    wls lr, r5, .L4
.L3:
    .rept 1
    adds r0, #1
    .endr
    le lr, .L3
.L4:
    dlstp.8 lr, r7
.L5:
    .rept 1
    adds r0, #1
    .endr
    letp lr, .L5
.L6:
    lctp
    wlstp.16 lr, r2, .L8
.L7:
    .rept 1
    adds r0, #1
    .endr
    letp lr, .L7
.L8:
    lctp
    dls lr, r7
.L9:
    .rept 3
    adds r0, #1
    .endr
    le lr, .L9
.L10:
    wls lr, r5, .L12
.L11:
    .rept 3
    adds r0, #1
    .endr
    le lr, .L11
.L12:
    dlstp.32 lr, r11
.L13:
    .rept 3
    adds r0, #1
    .endr
    letp lr, .L13
.L14:
    lctp
    wlstp.32 lr, r3, .L16
.L15:
    .rept 3
    adds r0, #1
    .endr
    letp lr, .L15
.L16:
    lctp
    dls lr, r10
.L17:
    .rept 10
    adds r0, #1
    .endr
    le lr, .L17
.L18:
    wls lr, r9, .L20
.L19:
    .rept 10
    adds r0, #1
    .endr
    le lr, .L19
.L20:
    dlstp.32 lr, r3
.L21:
    .rept 10
    adds r0, #1
    .endr
    letp lr, .L21
.L22:
    lctp
    wlstp.16 lr, r9, .L24
.L23:
    .rept 10
    adds r0, #1
    .endr
    letp lr, .L23
.L24:
    lctp
    dls lr, r12
.L25:
    .rept 40
    adds r0, #1
    .endr
    le lr, .L25
.L26:
    wls lr, r2, .L28
.L27:
    .rept 40
    adds r0, #1
    .endr
    le lr, .L27
.L28:
    dlstp.16 lr, r12
.L29:
    .rept 40
    adds r0, #1
    .endr
    letp lr, .L29
.L30:
    lctp
    wlstp.64 lr, r10, .L32
.L31:
    .rept 40
    adds r0, #1
    .endr
    letp lr, .L31
.L32:
    lctp
    dls lr, r3
.L33:
    .rept 200
    adds r0, #1
    .endr
    le lr, .L33
.L34:
    wls lr, r0, .L36
.L35:
    .rept 200
    adds r0, #1
    .endr
    le lr, .L35
.L36:
    dlstp.32 lr, r5
.L37:
    .rept 200
    adds r0, #1
    .endr
    letp lr, .L37
.L38:
    lctp
    wlstp.32 lr, r5, .L40
.L39:
    .rept 200
    adds r0, #1
    .endr
    letp lr, .L39
.L40:
    lctp
    dls lr, r9
.L41:
    .rept 500
    adds r0, #1
    .endr
    le lr, .L41
.L42:
    wls lr, r11, .L44
.L43:
    .rept 500
    adds r0, #1
    .endr
    le lr, .L43
.L44:
    dlstp.8 lr, r2
.L45:
    .rept 500
    adds r0, #1
    .endr
    letp lr, .L45
.L46:
    lctp
    wlstp.32 lr, r6, .L48
.L47:
    .rept 500
    adds r0, #1
    .endr
    letp lr, .L47
.L48:
    lctp
.L49:
    .rept 1
    adds r0, #1
    .endr
    le .L49
.L50:
    .rept 7
    adds r0, #1
    .endr
    le .L50
.L51:
    .rept 100
    adds r0, #1
    .endr
    le .L51
    bf .L52, .L53
    .rept 1
    nop
    .endr
.L52:
    nop
    .rept 20
    nop
    .endr
.L53:
    nop
    bfl .L54, .L55
    .rept 1
    nop
    .endr
.L54:
    nop
    .rept 20
    nop
    .endr
.L55:
    nop
    bfx .L56, r1
    .rept 1
    nop
    .endr
.L56:
    nop
    .rept 20
    nop
    .endr
.L57:
    nop
    bflx .L58, r11
    .rept 1
    nop
    .endr
.L58:
    nop
    .rept 600
    nop
    .endr
.L59:
    nop
    bfcsel .L60, .L61, .L60+4, vs
    .rept 1
    nop
    .endr
.L60:
    bvs .L61
.L61:
    nop
.L63:
    nop
    bf .L62, .L63
    .rept 2
    nop
    .endr
.L62:
    nop
    bfl .L64, .L65
    .rept 2
    nop
    .endr
.L64:
    nop
.L65:
    nop
    bfx .L66, r5
    .rept 2
    nop
    .endr
.L66:
    nop
.L67:
    nop
    bflx .L68, r3
    .rept 2
    nop
    .endr
.L68:
    nop
    .rept 600
    nop
    .endr
.L69:
    nop
    bfcsel .L70, .L71, .L70+4, vc
    .rept 2
    nop
    .endr
.L70:
    bvc .L71
    .rept 20
    nop
    .endr
.L71:
    nop
    bf .L72, .L73
    .rept 3
    nop
    .endr
.L72:
    nop
.L73:
    nop
.L75:
    nop
    bfl .L74, .L75
    .rept 3
    nop
    .endr
.L74:
    nop
    .rept 3000
    nop
    .endr
    bfx .L76, r3
    .rept 3
    nop
    .endr
.L76:
    nop
    .rept 600
    nop
    .endr
.L77:
    nop
    bflx .L78, r4
    .rept 3
    nop
    .endr
.L78:
    nop
.L79:
    nop
    bfcsel .L80, .L81, .L80+4, vc
    .rept 3
    nop
    .endr
.L80:
    bvc .L81
    .rept 20
    nop
    .endr
.L81:
    nop
    bf .L82, .L83
    .rept 4
    nop
    .endr
.L82:
    nop
    .rept 600
    nop
    .endr
.L83:
    nop
    bfl .L84, .L85
    .rept 4
    nop
    .endr
.L84:
    nop
    .rept 3000
    nop
    .endr
.L85:
    nop
    bfx .L86, r12
    .rept 4
    nop
    .endr
.L86:
    nop
    .rept 20
    nop
    .endr
.L87:
    nop
    bflx .L88, r11
    .rept 4
    nop
    .endr
.L88:
    nop
.L89:
    nop
    bfcsel .L90, .L91, .L90+4, hi
    .rept 4
    nop
    .endr
.L90:
    bhi .L91
.L91:
    nop
.L93:
    nop
    bf .L92, .L93
    .rept 6
    nop
    .endr
.L92:
    nop
    .rept 600
    nop
    .endr
    bfl .L94, .L95
    .rept 6
    nop
    .endr
.L94:
    nop
    .rept 20
    nop
    .endr
.L95:
    nop
    bfx .L96, r10
    .rept 6
    nop
    .endr
.L96:
    nop
    .rept 3000
    nop
    .endr
.L97:
    nop
    bflx .L98, r11
    .rept 6
    nop
    .endr
.L98:
    nop
.L99:
    nop
    bfcsel .L100, .L101, .L100+4, cc
    .rept 6
    nop
    .endr
.L100:
    bcc .L101
    .rept 20
    nop
    .endr
.L101:
    nop
    bf .L102, .L103
    .rept 8
    nop
    .endr
.L102:
    nop
    .rept 20
    nop
    .endr
.L103:
    nop
.L105:
    nop
    bfl .L104, .L105
    .rept 8
    nop
    .endr
.L104:
    nop
    .rept 600
    nop
    .endr
    bfx .L106, r8
    .rept 8
    nop
    .endr
.L106:
    nop
.L107:
    nop
    bflx .L108, r6
    .rept 8
    nop
    .endr
.L108:
    nop
    .rept 600
    nop
    .endr
.L109:
    nop
    bfcsel .L110, .L111, .L110+4, vc
    .rept 8
    nop
    .endr
.L110:
    bvc .L111
    .rept 20
    nop
    .endr
.L111:
    nop
    bf .L112, .L113
    .rept 10
    nop
    .endr
.L112:
    nop
    .rept 600
    nop
    .endr
.L113:
    nop
    bfl .L114, .L115
    .rept 10
    nop
    .endr
.L114:
    nop
    .rept 3000
    nop
    .endr
.L115:
    nop
    bfx .L116, r9
    .rept 10
    nop
    .endr
.L116:
    nop
    .rept 20
    nop
    .endr
.L117:
    nop
    bflx .L118, r0
    .rept 10
    nop
    .endr
.L118:
    nop
    .rept 3000
    nop
    .endr
.L119:
    nop
    bfcsel .L120, .L121, .L120+4, cc
    .rept 10
    nop
    .endr
.L120:
    bcc .L121
    .rept 600
    nop
    .endr
.L121:
    nop
    bf .L122, .L123
    .rept 12
    nop
    .endr
.L122:
    nop
    .rept 20
    nop
    .endr
.L123:
    nop
.L125:
    nop
    bfl .L124, .L125
    .rept 12
    nop
    .endr
.L124:
    nop
    .rept 20
    nop
    .endr
    bfx .L126, r6
    .rept 12
    nop
    .endr
.L126:
    nop
    .rept 3000
    nop
    .endr
.L127:
    nop
    bflx .L128, r7
    .rept 12
    nop
    .endr
.L128:
    nop
    .rept 20
    nop
    .endr
.L129:
    nop
    bfcsel .L130, .L131, .L130+4, cs
    .rept 12
    nop
    .endr
.L130:
    bcs .L131
    .rept 600
    nop
    .endr
.L131:
    nop
    bf .L132, .L133
    .rept 15
    nop
    .endr
.L132:
    nop
    .rept 3000
    nop
    .endr
.L133:
    nop
    bfl .L134, .L135
    .rept 15
    nop
    .endr
.L134:
    nop
    .rept 600
    nop
    .endr
.L135:
    nop
    bfx .L136, r5
    .rept 15
    nop
    .endr
.L136:
    nop
    .rept 600
    nop
    .endr
.L137:
    nop
    bflx .L138, r3
    .rept 15
    nop
    .endr
.L138:
    nop
.L139:
    nop
    bfcsel .L140, .L141, .L140+4, pl
    .rept 15
    nop
    .endr
.L140:
    bpl .L141
.L141:
    nop
    bx lr
