//! What the stack learns: the regression's teacher (`data`), the text (`corpus`), the copy, induction and reverse tasks, and which batches each task draws (`task`).

pub mod copy_task;
pub mod corpus;
pub mod data;
pub mod induction_task;
pub mod task;
