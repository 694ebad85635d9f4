// The built-in target description and its JSON form (ming/Analysis/Target.h).
#include "ming/Analysis/Target.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace ming::cost {

const Target &Target::builtin() {
  static const Target target = [] {
    Target t;
    t.name = "vitis-hls-ultrascale+-200mhz";
    // {f16, f32, f64} as {DSP, latency}: Vitis HLS operator cores at 200 MHz.
    auto op = [&](const char *name, OpTiming f16, OpTiming f32, OpTiming f64) {
      t.floatOps[name] = FloatOp{f16, f32, f64};
    };
    op("mulf", {2, 3}, {3, 3}, {11, 5});
    op("addf", {2, 4}, {2, 4}, {3, 5});
    op("divf", {0, 6}, {0, 10}, {0, 22});
    op("sqrtf", {0, 6}, {0, 10}, {0, 22});
    op("expf", {4, 6}, {7, 10}, {26, 20});
    // The C library's rational approximations (erf: two of degree 6-7 and an
    // exp; log1p: a degree-7 polynomial and a division), every multiply and
    // add its own core as a pipeline at II 1 has them: estimates, on the
    // side of more, no synthesis report behind them.
    op("erff", {24, 24}, {48, 40}, {160, 60});
    op("log1pf", {12, 20}, {24, 30}, {80, 50});
    op("logf", {12, 20}, {24, 30}, {80, 50});
    // pow as exp(y log x): a log, a multiply and an exp.
    op("powf", {18, 28}, {34, 43}, {117, 75});
    // tanh as 1 - 2 / (exp(2x) + 1): an exp, a division and two adds.
    op("tanhf", {8, 20}, {11, 28}, {32, 50});
    op("maxf", {0, 1}, {0, 1}, {0, 1});
    op("cmpf", {0, 1}, {0, 1}, {0, 1});
    op("negf", {0, 0}, {0, 0}, {0, 0});
    op("itofp", {0, 3}, {0, 4}, {0, 5});
    op("fptoi", {0, 3}, {0, 4}, {0, 5});
    op("fpconv", {0, 2}, {0, 2}, {0, 2});
    return t;
  }();
  return target;
}

namespace {

/// The scalar fields by their JSON key.
struct Field {
  const char *key;
  int64_t Target::*member;
  int64_t least;
};

constexpr Field kFields[] = {
    {"mul_latency", &Target::mulLatency, 0},
    {"mul_cascade_latency", &Target::mulCascadeLatency, 0},
    {"div_extra_latency", &Target::divExtraLatency, 0},
    {"alu_latency", &Target::aluLatency, 0},
    {"fifo_latency", &Target::fifoLatency, 0},
    {"bram_latency", &Target::bramLatency, 0},
    {"lutram_latency", &Target::lutramLatency, 0},
    {"uram_latency", &Target::uramLatency, 0},
    {"external_latency", &Target::externalLatency, 0},
    {"lutram_max_bits", &Target::lutramMaxBits, 0},
    {"srl_max_depth", &Target::srlMaxDepth, 0},
    {"srl_max_bits", &Target::srlMaxBits, 0},
    {"mem_ports", &Target::memPorts, 1},
    {"axi_bits", &Target::axiBits, 1},
};

bool readInt(const llvm::json::Value &v, int64_t least, const std::string &where, int64_t &out,
             std::string &error) {
  std::optional<int64_t> i = v.getAsInteger();
  if (!i || *i < least) {
    error = where + " must be an integer of at least " + std::to_string(least);
    return false;
  }
  out = *i;
  return true;
}

bool readTiming(const llvm::json::Value &v, const std::string &where, OpTiming &out,
                std::string &error) {
  const llvm::json::Object *o = v.getAsObject();
  if (!o) {
    error = where + " must be an object {\"dsp\": N, \"latency\": N}";
    return false;
  }
  for (const auto &[key, value] : *o) {
    if (key == "dsp") {
      if (!readInt(value, 0, where + ".dsp", out.dsp, error))
        return false;
    } else if (key == "latency") {
      if (!readInt(value, 0, where + ".latency", out.latency, error))
        return false;
    } else {
      error = "unknown key '" + key.str() + "' in " + where + " (dsp, latency)";
      return false;
    }
  }
  return true;
}

bool readFloatOps(const llvm::json::Value &v, Target &t, std::string &error) {
  const llvm::json::Object *ops = v.getAsObject();
  if (!ops) {
    error = "float_ops must be an object";
    return false;
  }
  for (const auto &[name, precisions] : *ops) {
    auto it = t.floatOps.find(name.str());
    if (it == t.floatOps.end()) {
      error = "unknown operator '" + name.str() + "' in float_ops";
      return false;
    }
    const llvm::json::Object *p = precisions.getAsObject();
    if (!p) {
      error = "float_ops." + name.str() + " must be an object with f16, f32, f64";
      return false;
    }
    for (const auto &[precision, timing] : *p) {
      std::string where = "float_ops." + name.str() + "." + precision.str();
      OpTiming *slot = precision == "f16"   ? &it->second.f16
                       : precision == "f32" ? &it->second.f32
                       : precision == "f64" ? &it->second.f64
                                            : nullptr;
      if (!slot) {
        error = "unknown precision '" + precision.str() + "' in float_ops." + name.str() +
                " (f16, f32, f64)";
        return false;
      }
      if (!readTiming(timing, where, *slot, error))
        return false;
    }
  }
  return true;
}

} // namespace

std::unique_ptr<Target> Target::load(llvm::StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = "cannot read the target description '" + path.str() + "': " +
            buffer.getError().message();
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = "the target description '" + path.str() + "' is not JSON: " +
            llvm::toString(json.takeError());
    return nullptr;
  }
  const llvm::json::Object *top = json->getAsObject();
  if (!top) {
    error = "the target description '" + path.str() + "' must be a JSON object";
    return nullptr;
  }
  auto t = std::make_unique<Target>(builtin());
  auto fail = [&](const std::string &what) {
    error = path.str() + ": " + what;
    return nullptr;
  };
  for (const auto &[key, value] : *top) {
    if (key == "name") {
      std::optional<llvm::StringRef> s = value.getAsString();
      if (!s)
        return fail("name must be a string");
      t->name = s->str();
      continue;
    }
    if (key == "float_ops") {
      std::string why;
      if (!readFloatOps(value, *t, why))
        return fail(why);
      continue;
    }
    const Field *field = nullptr;
    for (const Field &f : kFields)
      if (key == f.key)
        field = &f;
    if (!field)
      return fail("unknown key '" + key.str() + "'");
    std::string why;
    if (!readInt(value, field->least, key.str(), (*t).*(field->member), why))
      return fail(why);
  }
  return t;
}

std::string Target::toJson() const {
  llvm::json::Object ops;
  auto timing = [](const OpTiming &t) {
    return llvm::json::Object{{"dsp", t.dsp}, {"latency", t.latency}};
  };
  for (const auto &[name, op] : floatOps)
    ops[name] = llvm::json::Object{
        {"f16", timing(op.f16)}, {"f32", timing(op.f32)}, {"f64", timing(op.f64)}};
  llvm::json::Object top{{"name", name}, {"float_ops", std::move(ops)}};
  for (const Field &f : kFields)
    top[f.key] = this->*(f.member);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(top))) << "\n";
  return text;
}

} // namespace ming::cost
