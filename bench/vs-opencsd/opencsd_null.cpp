// Decodes one raw (unformatted) ETMv3 or PTM trace stream with OpenCSD's decode tree (C API) into a
// sink that only counts, so that the time measured is decoding, not output formatting.
//
//   opencsd_null packets|decode etm3|ptm|etm4 TRACE IDR CTRL CCER TRCID REPEAT [IMAGE@ADDRESS ...]
//
// For etm4 (an A-profile ETMv4 unit) IDR is TRCIDR0, CTRL TRCCONFIGR and CCER TRCIDR1; TRCIDR2 is 0x488
// (64-bit addresses, 32-bit context ID, 8-bit VMID) and TRCIDR8-13 are 0, as armtrace's encoder writes them.
//
// "packets" creates the packet processor alone (OCSD_CREATE_FLG_PACKET_PROC) and counts packets;
// "decode" creates processor + decoder (OCSD_CREATE_FLG_FULL_DECODER) with the image files as memory
// and counts generic elements and the instructions of OCSD_GEN_TRC_ELEM_INSTR_RANGE elements.
// The trace and images are read into memory first; each of REPEAT runs builds a fresh decode tree
// and decodes the whole buffer. Prints one line of key=value pairs: best and median wall seconds, and
// the best CPU seconds of the decoding thread.
//
//   opencsd_null version
//
// prints the version of the OpenCSD library this driver runs with, as the library itself reports it
// (ocsd_get_version / ocsd_get_version_str), whichever build the dynamic linker found.
#include <opencsd/c_api/opencsd_c_api.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>
#include <vector>

namespace {

struct Counts {
    uint64_t packets = 0;
    uint64_t elements = 0;
    uint64_t instructions = 0;
};

ocsd_datapath_resp_t on_packet(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t, const void *) {
    if (op == OCSD_OP_DATA) {
        static_cast<Counts *>(const_cast<void *>(ctx))->packets++;
    }
    return OCSD_RESP_CONT;
}

ocsd_datapath_resp_t on_element(const void *ctx, const ocsd_trc_index_t, const uint8_t, const ocsd_generic_trace_elem *e) {
    Counts *c = static_cast<Counts *>(const_cast<void *>(ctx));
    c->elements++;
    if (e->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE) {
        c->instructions += e->num_instr_range;
    }
    return OCSD_RESP_CONT;
}

std::vector<uint8_t> read_file(const char *path) {
    FILE *f = std::fopen(path, "rb");
    if (!f) {
        std::fprintf(stderr, "opencsd_null: cannot open %s\n", path);
        std::exit(2);
    }
    std::vector<uint8_t> data;
    uint8_t buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        data.insert(data.end(), buf, buf + n);
    }
    std::fclose(f);
    return data;
}

struct Image {
    uint64_t address;
    std::vector<uint8_t> bytes;
};

void check(ocsd_err_t err, const char *what) {
    if (err != OCSD_OK) {
        std::fprintf(stderr, "opencsd_null: %s failed (OpenCSD error %d)\n", what, (int) err);
        std::exit(1);
    }
}

Counts run(bool decode, const char *name, const std::vector<uint8_t> &trace, const void *config, std::vector<Image> &images) {
    Counts counts;
    dcd_tree_handle_t tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
    if (tree == C_API_INVALID_TREE_HANDLE) {
        std::fprintf(stderr, "opencsd_null: cannot create decode tree\n");
        std::exit(1);
    }
    unsigned char id = 0;
    if (decode) {
        check(ocsd_dt_create_decoder(tree, name, OCSD_CREATE_FLG_FULL_DECODER, config, &id), "create decoder");
        check(ocsd_dt_set_gen_elem_outfn(tree, on_element, &counts), "set element sink");
        for (Image &im : images) {
            check(ocsd_dt_add_buffer_mem_acc(tree, im.address, OCSD_MEM_SPACE_ANY, im.bytes.data(),
                                             (uint32_t) im.bytes.size()), "add memory");
        }
    } else {
        check(ocsd_dt_create_decoder(tree, name, OCSD_CREATE_FLG_PACKET_PROC, config, &id), "create packet processor");
        check(ocsd_dt_attach_packet_callback(tree, id, OCSD_C_API_CB_PKT_SINK, (void *) on_packet, &counts),
              "attach packet sink");
    }
    const uint32_t block = 1 << 20;
    size_t off = 0;
    while (off < trace.size()) {
        uint32_t len = (uint32_t) std::min<size_t>(block, trace.size() - off);
        uint32_t done = 0;
        ocsd_datapath_resp_t resp = ocsd_dt_process_data(tree, OCSD_OP_DATA, off, len, trace.data() + off, &done);
        if (OCSD_DATA_RESP_IS_FATAL(resp)) {
            std::fprintf(stderr, "opencsd_null: fatal datapath response %d at byte %zu\n", (int) resp, off + done);
            std::exit(1);
        }
        off += done;
        if (done == 0 && !OCSD_DATA_RESP_IS_CONT(resp)) {
            ocsd_dt_process_data(tree, OCSD_OP_FLUSH, 0, 0, nullptr, nullptr);
        }
    }
    ocsd_dt_process_data(tree, OCSD_OP_EOT, 0, 0, nullptr, nullptr);
    ocsd_destroy_dcd_tree(tree);
    return counts;
}

/** CPU time of this thread: on a shared, loaded machine it excludes the time other processes ran. */
double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "version") == 0) {
        uint32_t v = ocsd_get_version();
        std::printf("version=%u.%u.%u version_str=%s\n", (unsigned) (v >> 16), (unsigned) ((v >> 8) & 0xff),
                    (unsigned) (v & 0xff), ocsd_get_version_str());
        return 0;
    }
    if (argc < 9) {
        std::fprintf(stderr,
                     "usage: opencsd_null packets|decode etm3|ptm TRACE IDR CTRL CCER TRCID REPEAT [IMAGE@ADDRESS ...]\n"
                     "       opencsd_null version\n"
                     "       opencsd_null packets|decode etm4 TRACE TRCIDR0 TRCCONFIGR TRCIDR1,TRCIDR2,TRCIDR8 TRCTRACEIDR REPEAT ...\n");
        return 2;
    }
    bool decode = std::strcmp(argv[1], "decode") == 0;
    bool ptm = std::strcmp(argv[2], "ptm") == 0;
    bool etm4 = std::strcmp(argv[2], "etm4") == 0;
    std::vector<uint8_t> trace = read_file(argv[3]);
    uint32_t idr = std::strtoul(argv[4], nullptr, 0);
    uint32_t ctrl = std::strtoul(argv[5], nullptr, 0);
    uint32_t ccer = std::strtoul(argv[6], nullptr, 0);
    uint32_t trcid = std::strtoul(argv[7], nullptr, 0);
    int repeat = std::max(1, std::atoi(argv[8]));
    std::vector<Image> images;
    for (int i = 9; i < argc; i++) {
        std::string arg = argv[i];
        size_t at = arg.rfind('@');
        if (at == std::string::npos) {
            std::fprintf(stderr, "opencsd_null: image %s has no @ADDRESS\n", argv[i]);
            return 2;
        }
        images.push_back({std::strtoull(arg.c_str() + at + 1, nullptr, 0), read_file(arg.substr(0, at).c_str())});
    }
    ocsd_etmv3_cfg etm3{};
    ocsd_ptm_cfg ptmc{};
    ocsd_etmv4_cfg etm4c{};
    const void *config;
    const char *name = ptm ? OCSD_BUILTIN_DCD_PTM : etm4 ? OCSD_BUILTIN_DCD_ETMV4I : OCSD_BUILTIN_DCD_ETMV3;
    if (etm4) {
        // the CCER argument carries TRCIDR1, or TRCIDR1,TRCIDR2,TRCIDR8 (TRCIDR2 0x488 and TRCIDR8 0 if not given)
        char *rest = argv[6];
        etm4c.reg_idr0 = idr;
        etm4c.reg_idr1 = std::strtoul(rest, &rest, 0);
        etm4c.reg_idr2 = *rest == ',' ? std::strtoul(rest + 1, &rest, 0) : 0x488;
        etm4c.reg_idr8 = *rest == ',' ? std::strtoul(rest + 1, &rest, 0) : 0;
        etm4c.reg_configr = ctrl;
        etm4c.reg_traceidr = trcid;
        etm4c.arch_ver = ARCH_V8;
        etm4c.core_prof = profile_CortexA;
        config = &etm4c;
    } else if (ptm) {
        ptmc = {idr, ctrl, ccer, trcid, ARCH_V7, profile_CortexA};
        config = &ptmc;
    } else {
        etm3 = {idr, ctrl, ccer, trcid, ARCH_V7, profile_CortexA};
        config = &etm3;
    }
    std::vector<double> seconds, cpu;
    Counts counts;
    for (int i = 0; i < repeat; i++) {
        double c0 = thread_cpu_seconds();
        auto t0 = std::chrono::steady_clock::now();
        counts = run(decode, name, trace, config, images);
        auto t1 = std::chrono::steady_clock::now();
        cpu.push_back(thread_cpu_seconds() - c0);
        seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf("bytes=%zu packets=%" PRIu64 " elements=%" PRIu64 " instructions=%" PRIu64
                " best_s=%.6f median_s=%.6f best_cpu_s=%.6f\n",
                trace.size(), counts.packets, counts.elements, counts.instructions, seconds.front(),
                seconds[seconds.size() / 2], cpu.front());
    return 0;
}
