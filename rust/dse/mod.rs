//! Design-space exploration (ARCHITECTURE.md stage 4): the C++ cost model
//! estimates every candidate configuration of every process, `ilp` picks one
//! per process with HiGHS, and the choice is written back as attributes.
pub mod ilp;
